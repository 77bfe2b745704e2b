import Foundation
import LedgerCore

/// Writes synthetic test histories: `runs` runs of `tests` tests each, with a few flaky,
/// broken and slow tests and predicates, as the Ledger event stream or JUnit XML.
struct SyntheticHistory {
    var tests: Int
    var runs: Int
    /// When the first run starts, and the seconds between runs: an hour, or a day for a history
    /// that spans years.
    var start = 1_700_000_000.0
    var spacing = 3_600.0

    /// When run number `run` starts.
    func startOfRun(_ run: Int) -> Double { start + Double(run) * spacing }

    /// The outcome of test `test` in run `run`: about 2 % flaky, 0.5 % broken.
    func outcome(test: Int, run: Int) -> Outcome {
        if test % 200 == 7 { return run % 3 == 0 ? .failed : .passed }
        if test % 200 == 11 { return .failed }
        if test % 50 == 3 { return (run * 7 + test) % 5 == 0 ? .failed : .passed }
        return .passed
    }

    func layerName(_ test: Int) -> String {
        test % 10 == 0 ? "DemoUITests" : test % 10 < 3 ? "DemoIntegrationTests" : "DemoTests"
    }

    /// The `run.start` line of run number `run`: project `Bench`, three runs a revision.
    func runStart(_ id: String, run: Int, at: Double) -> String {
        #"{"v":1,"type":"run.start","run":"\#(id)","at":\#(at),"project":"Bench","source":"xctest","revision":"r\#(run / 3)"}"#
            + "\n"
    }

    /// Writes the Ledger event stream; returns the number of results written.
    @discardableResult
    func writeLedgerStream(to url: URL) throws -> Int {
        let writer = try BufferedWriter(url: url)
        var results = 0
        for run in 0..<runs {
            let runID = String(format: "00000000-0000-4000-8000-%012x", run)
            var at = startOfRun(run)
            writer.write(runStart(runID, run: run, at: at))
            for test in 0..<tests {
                let id = "\(layerName(test)).Suite\(test / 20)/test\(test)()"
                let outcome = outcome(test: test, run: run)
                writer.write(
                    #"{"v":1,"type":"test.start","run":"\#(runID)","at":\#(at),"test":"\#(id)","attempt":1}"# + "\n")
                if test % 100 == 5 {
                    let held = (run + test) % 4 != 0
                    writer.write(
                        #"{"v":1,"type":"predicate","run":"\#(runID)","at":\#(at),"test":"\#(id)","attempt":1,"name":"spinner hidden","expect":"holds","held":\#(held),"attempts":\#(held ? 12 : 100),"waited":\#(held ? 0.12 : 1.0),"timeout":1.0,"interval":0.01}"#
                            + "\n")
                }
                at += 0.002
                writer.write(
                    #"{"v":1,"type":"test.end","run":"\#(runID)","at":\#(at),"test":"\#(id)","attempt":1,"outcome":"\#(outcome.rawValue)","duration":0.002}"#
                        + "\n")
                results += 1
            }
            writer.write(#"{"v":1,"type":"run.end","run":"\#(runID)","at":\#(at)}"# + "\n")
        }
        try writer.close()
        return results
    }

    /// Writes one JUnit XML file per run into `folder`; returns the files.
    func writeJUnit(to folder: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try (0..<runs).map { run in
            let url = folder.appending(path: "run\(run).xml")
            let writer = try BufferedWriter(url: url)
            writer.write(#"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<testsuites>\n")
            writer.write(#"<testsuite name="Bench" tests="\#(tests)" timestamp="2026-11-01T10:00:00Z">"# + "\n")
            for test in 0..<tests {
                let classname = "\(layerName(test)).Suite\(test / 20)"
                writer.write(#"<testcase classname="\#(classname)" name="test\#(test)()" time="0.002""#)
                if outcome(test: test, run: run).isFailure {
                    writer.write(
                        ">\n<failure message=\"XCTAssertEqual failed\">Suite.swift:12</failure>\n</testcase>\n")
                } else {
                    writer.write("/>\n")
                }
            }
            writer.write("</testsuite>\n</testsuites>\n")
            try writer.close()
            return url
        }
    }
}

/// Appends text to a file through a 1 MiB buffer.
final class BufferedWriter {
    private let handle: FileHandle
    private var buffer = Data()

    init(url: URL) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        handle = try FileHandle(forWritingTo: url)
        buffer.reserveCapacity(1 << 20)
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { flush() }
    }

    private func flush() {
        handle.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    func close() throws {
        flush()
        try handle.close()
    }
}
