import Foundation
import LedgerCore
import LedgerImport
import LedgerStore
import LedgerTestSupport

/// A CI job's whole cost at its newest run — `testledger ingest` of that run's JUnit file, then
/// `testledger report flaky` — against `flaky-tests-detection` (PyPI) reading the folder of every
/// run's JUnit files, on one planted history: the CPU seconds of the child processes, the least of
/// several repeats, each repeat starting from the same ledger of the earlier runs.
enum CIJobCost {
    static let project = "App"
    static let day = 86_400.0

    /// The planted history: per kind, its tests' attempts in every run.
    struct History {
        var tests: [(id: (classname: String, name: String), kind: PlantedKind, attempts: [[Outcome]])] = []

        init(tests count: Int, runs: Int, perKind: Int, seed: UInt64) {
            var numbers = SeededNumbers(seed: seed)
            for kind in PlantedKind.allCases where kind != .stable {
                for index in 0..<perKind {
                    tests.append(((kind.className, "test\(index)()"), kind, kind.attempts(runs: runs, &numbers)))
                }
            }
            for index in 0..<max(0, count - tests.count) {
                let stable = PlantedKind.stable.attempts(runs: runs, &numbers)
                tests.append((("AppTests.Suite\(index / 20)", "test\(index)()"), .stable, stable))
            }
        }

        /// One JUnit file per run, a day apart, the newest an hour ago; a retry is Surefire's
        /// `flakyFailure`, which `flaky-tests-detection` reads as a pass.
        func writeJUnit(runs: Int, to folder: URL, now: Double) throws -> [URL] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let formatter = ISO8601DateFormatter()
            return try (0..<runs).map { run in
                let url = folder.appending(path: String(format: "run%03d.xml", run))
                let writer = try BufferedWriter(url: url)
                let stamp = formatter.string(
                    from: Date(timeIntervalSince1970: now - 3_600 - Double(runs - 1 - run) * day))
                writer.write(#"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<testsuites>\n")
                writer.write(#"<testsuite name="App" tests="\#(tests.count)" timestamp="\#(stamp)">"# + "\n")
                for test in tests {
                    writer.write(#"<testcase classname="\#(test.id.classname)" name="\#(test.id.name)" time="0.004""#)
                    let attempts = test.attempts[run]
                    if attempts.last?.isFailure == true {
                        writer.write(
                            ">\n<failure message=\"XCTAssertEqual failed\">AppTests.swift:12</failure>\n</testcase>\n")
                    } else if attempts.contains(where: \.isFailure) {
                        writer.write(">\n<flakyFailure message=\"XCTAssertTrue failed\"/>\n</testcase>\n")
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

    static func run(tests: Int, runs: Int, perKind: Int = 10, seed: UInt64 = 11, repeats: Int = 5) throws {
        let benchmark = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let testledger = benchmark.deletingLastPathComponent().appending(path: "testledger")
        guard FileManager.default.isExecutableFile(atPath: testledger.path) else {
            throw BenchmarkError(
                "\(testledger.path) is missing: build it beside the benchmark (swift build -c release) first")
        }
        let folder = FileManager.default.temporaryDirectory.appending(path: "ci-job-benchmark-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let history = History(tests: tests, runs: runs, perKind: perKind, seed: seed)
        let files = try history.writeJUnit(
            runs: runs, to: folder.appending(path: "junit"), now: Date().timeIntervalSince1970)
        guard let newest = files.last else { throw BenchmarkError("a CI job needs at least one run") }
        let earlier = folder.appending(path: "earlier.sqlite")
        try storeEarlierRuns(files.dropLast(), into: earlier)

        let work = folder.appending(path: "work.sqlite")
        var output = ""
        let job = try CPUTime.least(repeats: repeats, { CPUTime.ofChildren }) {
            try? FileManager.default.removeItem(at: work)
            try FileManager.default.copyItem(at: earlier, to: work)
        } measure: {
            _ = try child(
                testledger,
                ["ingest", "--db", work.path, "--project", project, "--revision", "r\((runs - 1) / 3)", newest.path],
                in: folder)
            output = try child(
                testledger, ["report", "flaky", "--db", work.path, "--runs", "\(runs)", "--format", "json"], in: folder)
        }
        let verdict = try Verdict(reportJSON: output, history: history)

        print(
            "A CI job at run \(runs) of a \(history.tests.count)-test project (child CPU seconds, least of \(repeats)):"
        )
        print(String(format: "  testledger ingest (newest run) + report flaky   %7.3f s", job))
        if let flaky = which("flaky") {
            let theirs = try CPUTime.least(repeats: max(1, repeats / 2), { CPUTime.ofChildren }) {
                _ = try child(
                    flaky,
                    [
                        "--junit-files", folder.appending(path: "junit").path, "--grouping-option", "runs",
                        "--window-size", "10", "--window-count", "\(runs / 10)", "--top-n", "50",
                    ], in: folder)
            }
            print(String(format: "  flaky-tests-detection over the folder (baseline) %6.3f s", theirs))
            print(
                String(
                    format: "  testledger is %.1f× faster  target ≥ 25×: %@", theirs / job,
                    theirs / job >= 25 ? "met" : "MISSED"))
        } else {
            print("  flaky-tests-detection is not installed (pip install flaky-tests-detection): no baseline")
        }
        print(
            "  planted flaky found: \(verdict.found) of \(verdict.planted)"
                + (verdict.missed.isEmpty ? "" : " (missed: \(verdict.missed.joined(separator: ", ")))")
                + "; stable, fixed or broken called flaky: \(verdict.wronglyFlaky.count)"
                + (verdict.wronglyFlaky.isEmpty ? "" : " (\(verdict.wronglyFlaky.joined(separator: ", ")))"))
    }

    /// Stores the earlier runs as `testledger ingest` would, in this process: only the newest run is
    /// the job's.
    static func storeEarlierRuns(_ files: ArraySlice<URL>, into path: URL) throws {
        let database = try LedgerDatabase(path: path.path)
        for (run, file) in files.enumerated() {
            let context = ImportContext(
                runID: String(format: "00000000-0000-4000-a000-%012x", run), sourceName: file.path,
                metadata: RunMetadata(project: project, revision: "r\(run / 3)"), fallbackStart: 0)
            try database.ingest { sink in
                try JUnitImporter().importResults(from: .file(file), context: context, into: &sink)
            }
        }
        try database.writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
    }

    /// What the report's JSON says of the planted tests.
    struct Verdict {
        var planted = 0
        var found = 0
        var missed: [String] = []
        var wronglyFlaky: [String] = []

        init(reportJSON: String, history: History) throws {
            struct Listed: Decodable { var test: String }
            struct Report: Decodable { var flaky: [Listed] }
            let flaky = Set(try JSONDecoder().decode(Report.self, from: Data(reportJSON.utf8)).flaky.map(\.test))
            for test in history.tests {
                // JUnit's test id: class, slash, name.
                let name = "\(test.id.classname)/\(test.id.name)"
                let listed = flaky.contains(name)
                if test.kind.isFlaky {
                    planted += 1
                    if listed { found += 1 } else { missed.append(name) }
                } else if listed {
                    wronglyFlaky.append(name)
                }
            }
        }
    }

    /// Runs a program to its end with only `PATH` and `HOME` from this environment; returns its
    /// standard output, or throws with its standard error when it fails.
    static func child(_ executable: URL, _ arguments: [String], in directory: URL) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.filter { ["PATH", "HOME"].contains($0.key) }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaints = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError(
                "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): "
                    + String(decoding: complaints, as: UTF8.self))
        }
        return String(decoding: printed, as: UTF8.self)
    }

    static func which(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appending(path: name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

extension PlantedKind {
    /// The JUnit class that holds the planted tests of this kind.
    var className: String { "AppTests.\(rawValue.prefix(1).uppercased() + rawValue.dropFirst())Tests" }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
