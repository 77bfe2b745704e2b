import Foundation
import LedgerCore
import LedgerImport
import LedgerStore
import LedgerTestSupport

/// A CI job's whole cost at its newest run — `testledger ingest` of that run's JUnit file, then
/// `testledger report flaky` — against `flaky-tests-detection` (PyPI) reading the folder of every
/// run's JUnit files, on one planted history: the wall-clock seconds and the CPU seconds of the
/// child processes, each the least of several repeats, each repeat starting from the same ledger
/// of the earlier runs.
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

    /// Runs the job with `binary` (default: the `testledger` built beside the benchmark).
    static func run(
        tests: Int, runs: Int, perKind: Int = 10, seed: UInt64 = 11, repeats: Int = 5, binary: String? = nil
    ) throws {
        let testledger = try testledgerBinary(binary)
        let folder = FileManager.default.temporaryDirectory.appending(path: "ci-job-benchmark-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let history = History(tests: tests, runs: runs, perKind: perKind, seed: seed)
        let files = try history.writeJUnit(
            runs: runs, to: folder.appending(path: "junit"), now: Date().timeIntervalSince1970)
        guard let newest = files.last else { throw BenchmarkError("a CI job needs at least one run") }
        let earlier = folder.appending(path: "earlier.sqlite")
        try storeEarlierRuns(files.dropLast(), into: earlier)

        let work = folder.appending(path: "work.sqlite")
        // The children run in the history's folder, away from any checkout and its settings.
        guard FileManager.default.changeCurrentDirectoryPath(folder.path) else {
            throw BenchmarkError("cannot work in \(folder.path)")
        }
        var output = ""
        let job = try Cost.least(repeats: repeats) {
            try? FileManager.default.removeItem(at: work)
            try FileManager.default.copyItem(at: earlier, to: work)
        } measure: {
            _ = try child(
                testledger.path,
                ["ingest", "--db", work.path, "--project", project, "--revision", "r\((runs - 1) / 3)", newest.path])
            output = try child(
                testledger.path, ["report", "flaky", "--db", work.path, "--runs", "\(runs)", "--format", "json"])
        }
        let verdict = try Verdict(reportJSON: output, history: history)

        print(
            "A CI job at run \(runs) of a \(history.tests.count)-test project (child processes, least of \(repeats)):")
        print("  with \(testledger.path)")
        func line(_ label: String, _ cost: Cost) {
            print(
                "  " + label.padding(toLength: 56, withPad: " ", startingAt: 0)
                    + String(format: "%7.3f  %7.3f", cost.wall, cost.cpu))
        }
        print(String(repeating: " ", count: 58) + " wall s    CPU s")
        line("testledger ingest (newest run) + report flaky", job)
        if let flaky = which("flaky") {
            let peerRepeats = max(1, repeats / 2)
            let theirs = try Cost.least(repeats: peerRepeats) {
                _ = try child(
                    flaky.path,
                    [
                        "--junit-files", folder.appending(path: "junit").path, "--grouping-option", "runs",
                        "--window-size", "10", "--window-count", "\(runs / 10)", "--top-n", "50",
                    ])
            }
            line("flaky-tests-detection over the folder (least of \(peerRepeats))", theirs)
            let (byClock, byCPU) = (theirs.wall / job.wall, theirs.cpu / job.cpu)
            print(
                String(
                    format: "  testledger is %.1f× faster by the clock, %.1f× by CPU  target ≥ 25× by the clock: %@"
                        + ", ≥ 50×: %@", byClock, byCPU, byClock >= 25 ? "met" : "MISSED",
                    byClock >= 50 ? "met" : "MISSED"))
        } else {
            print("  flaky-tests-detection is not installed (pip install flaky-tests-detection): no baseline")
        }
        print(
            "  planted flaky found: \(verdict.found) of \(verdict.planted)"
                + (verdict.missed.isEmpty ? "" : " (missed: \(verdict.missed.joined(separator: ", ")))")
                + "; stable, fixed or broken called flaky: \(verdict.wronglyFlaky.count)"
                + (verdict.wronglyFlaky.isEmpty ? "" : " (\(verdict.wronglyFlaky.joined(separator: ", ")))"))
    }

    /// The least wall-clock and the least CPU seconds of child processes over several repeats.
    struct Cost {
        var wall = Double.infinity
        var cpu = Double.infinity

        /// Runs `prepare` then `measure` `repeats` times, timing `measure` only.
        static func least(repeats: Int, prepare: () throws -> Void = {}, measure: () throws -> Void) throws -> Cost {
            var best = Cost()
            for _ in 0..<repeats {
                try prepare()
                let cost = try once(measure)
                best = Cost(wall: min(best.wall, cost.wall), cpu: min(best.cpu, cost.cpu))
            }
            return best
        }

        /// The wall-clock seconds of `measure`, and the CPU seconds of the child processes it
        /// waited for: what `wait4` reports of each, summed by the kernel into `RUSAGE_CHILDREN`.
        static func once(_ measure: () throws -> Void) rethrows -> Cost {
            let (started, cpu) = (DispatchTime.now().uptimeNanoseconds, CPUTime.ofChildren)
            try measure()
            return Cost(
                wall: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9, cpu: CPUTime.ofChildren - cpu)
        }
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
        try database.close()
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

    /// Runs a program to its end in the current directory with only `PATH` and `HOME` from this
    /// environment, started as `testledger` starts git (`posix_spawn`, no descriptor sweep);
    /// returns its standard output, or throws when it fails.
    static func child(_ executable: String, _ arguments: [String]) throws -> String {
        let environment = ProcessInfo.processInfo.environment.filter { ["PATH", "HOME"].contains($0.key) }
        let ended = try Spawn.run(executable, arguments, environment: environment)
        guard ended.status == 0 else {
            throw BenchmarkError(
                "\(executable) \(arguments.joined(separator: " ")) exited \(ended.status) (run it by hand to see why)")
        }
        return ended.text
    }

    /// `path`, else the `testledger` beside the benchmark; throws when it is not an executable.
    static func testledgerBinary(_ path: String?) throws -> URL {
        let benchmark = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let binary =
            path.map { URL(fileURLWithPath: $0) }
            ?? benchmark.deletingLastPathComponent().appending(path: "testledger")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw BenchmarkError(
                path == nil
                    ? "\(binary.path) is missing: build it beside the benchmark (swift build -c release) first"
                    : "\(binary.path) is not an executable")
        }
        return binary
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
