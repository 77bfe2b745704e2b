import Foundation

/// `testledger ingest` of one NDJSON file and of a folder of JUnit files by several binaries
/// taking turns (A B A B …), each ingest a child process (``CIJobCost/child(_:_:)``) into a fresh
/// ledger, in a folder outside any checkout. The benchmark's own ingest figures are measured in
/// this process, through the store; this measures the binaries as built and linked.
enum BinaryIngest {
    /// Ingests the inputs with each binary once to warm the page cache, then `rounds` times in turn.
    static func run(binaries: [String], tests: Int, runs: Int, junitRuns: Int, rounds: Int) throws {
        let binaries = try binaries.map { try CIJobCost.testledgerBinary($0).path }
        guard !binaries.isEmpty else { throw BenchmarkError("--ingest-binaries needs at least one binary") }
        let folder = FileManager.default.temporaryDirectory.appending(path: "ingest-benchmark-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stream = folder.appending(path: "history.ndjson")
        let streamResults = try SyntheticHistory(tests: tests, runs: runs).writeLedgerStream(to: stream)
        // The CI job's history: its files differ run to run (ingest stores a file's content once).
        let junit = folder.appending(path: "junit")
        _ = try CIJobCost.History(tests: tests, runs: junitRuns, perKind: 10, seed: 11)
            .writeJUnit(runs: junitRuns, to: junit, now: Date().timeIntervalSince1970)
        let inputs = [("NDJSON", stream.path, streamResults), ("JUnit", junit.path, tests * junitRuns)]
        guard FileManager.default.changeCurrentDirectoryPath(folder.path) else {
            throw BenchmarkError("cannot work in \(folder.path)")
        }
        let ledger = folder.appending(path: "ledger.sqlite").path
        func ingest(_ binary: String, _ input: String) throws -> CIJobCost.Cost {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: ledger + suffix) }
            let flags = ["--db", ledger, "--project", "Bench", "--revision", "r1", "--branch", "main"]
            return try CIJobCost.Cost.once { _ = try CIJobCost.child(binary, ["ingest"] + flags + [input]) }
        }

        print(
            "testledger ingest, \(rounds) rounds of the binaries in turn after a warm-up, each into a fresh ledger"
                + " (median results/s; ÷ [1]: median of each round's ratio):")
        for (index, binary) in binaries.enumerated() { print("  [\(index + 1)] \(binary)") }
        print("                                           wall/s     CPU/s   ÷ [1] wall  CPU")
        for (format, path, results) in inputs {
            for binary in binaries { _ = try ingest(binary, path) }
            var costs = [[CIJobCost.Cost]](repeating: [], count: binaries.count)
            for _ in 0..<rounds {
                for (index, binary) in binaries.enumerated() { costs[index].append(try ingest(binary, path)) }
            }
            for (index, own) in costs.enumerated() {
                let rate = { (seconds: [Double]) in seconds.map { Double(results) / $0 }.sorted().median }
                let ratios = { (seconds: (CIJobCost.Cost) -> Double) in
                    zip(costs[0], own).map { seconds($0) / seconds($1) }.sorted()
                }
                let (byWall, byCPU) = (ratios(\.wall), ratios(\.cpu))
                var line =
                    "  "
                    + "[\(index + 1)] \(format), \(results) results".padding(toLength: 36, withPad: " ", startingAt: 0)
                    + String(
                        format: "%10.0f %9.0f %10.2f× %5.2f×", rate(own.map(\.wall)), rate(own.map(\.cpu)),
                        byWall.median, byCPU.median)
                if index > 0, let low = byWall.first, let high = byWall.last {
                    line += String(
                        format: "  (rounds %.2f–%.2f×)  [1] at most 5 %% slower than it: %@", low, high,
                        1 / byWall.median >= 0.95 ? "met" : "MISSED")
                }
                print(line)
            }
        }
    }
}
