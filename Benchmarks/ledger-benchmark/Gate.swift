import Foundation
import GRDB
import LedgerCore
import LedgerImport
import LedgerStore

/// `ledger-benchmark --gate`: a scaled scenario whose figures are ratios against baselines measured
/// in the same run (or peak memory), each held to its limit in `docs/benchmarks.md`'s gate table.
/// It fails, naming the figure, when one passes its limit: a feature that slows the core, or a
/// step whose cost grows faster than its input, fails CI.
enum Gate {
    /// The scenario's ledgers: `tests` tests × `runs` runs run one at a time, half as many tests,
    /// and the same run side by side in `workers` processes.
    struct Scenario {
        var tests = 2_000
        var runs = 100
        var workers = 4
        var repeats = 7
    }

    /// Measures every figure, prints each against its limit, and says whether all are within.
    static func run(scenario: Scenario, limits file: URL) throws -> Bool {
        let limits = try GateLimits(markdown: String(contentsOf: file, encoding: .utf8), source: file.path)
        let folder = FileManager.default.temporaryDirectory.appending(path: "ledger-gate-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var figures: [GateLimits.Figure] = []
        let measure = GateMeasures(scenario: scenario, folder: folder)
        figures += try measure.ingest()
        figures += try measure.reports()
        figures += try measure.growth()
        figures += try measure.memory()
        return limits.judge(figures, print: { print($0) })
    }
}

/// The figures of the gate, each measured in CPU seconds (least of `repeats`) against a baseline
/// of the same run, or in MiB.
final class GateMeasures {
    let scenario: Gate.Scenario
    let folder: URL
    private var ledgers: [String: (database: LedgerDatabase, stream: URL, results: Int)] = [:]

    init(scenario: Gate.Scenario, folder: URL) {
        (self.scenario, self.folder) = (scenario, folder)
    }

    /// A ledger of `tests` × `runs` results, one at a time or in `workers` processes; made once.
    func ledger(tests: Int, workers: Int = 1) throws -> (database: LedgerDatabase, stream: URL, results: Int) {
        let name = "\(tests)x\(scenario.runs)-\(workers)"
        if let made = ledgers[name] { return made }
        let stream = folder.appending(path: "\(name).ndjson")
        let history = SyntheticHistory(tests: tests, runs: scenario.runs)
        let results =
            workers == 1
            ? try history.writeLedgerStream(to: stream) : try history.writeParallelStream(to: stream, workers: workers)
        let database = try LedgerDatabase(path: folder.appending(path: "\(name).sqlite").path)
        try ingest(stream, into: database)
        ledgers[name] = (database, stream, results)
        return (database, stream, results)
    }

    func ingest(_ stream: URL, into database: LedgerDatabase) throws {
        let context = ImportContext(
            runID: UUID().uuidString, sourceName: stream.path, metadata: RunMetadata(project: "Bench"),
            fallbackStart: 0)
        try database.ingest { sink in
            try LedgerStreamImporter().importResults(from: .file(stream), context: context, into: &sink)
        }
    }

    func least(_ body: () throws -> Void) throws -> Double {
        try CPUTime.least(repeats: scenario.repeats, { CPUTime.ofThisProcess }, measure: body)
    }

    /// One `GROUP BY test` over every stored result: what any report reading every result would cost.
    func groupBy(_ database: LedgerDatabase) throws -> Double {
        try least { try ReportCost.groupBy(database) }
    }

    /// `ingest` of the scenario's stream into a fresh ledger against `sqlite3 .import` of the same
    /// rows as CSV into a bare table.
    func ingest() throws -> [GateLimits.Figure] {
        let history = SyntheticHistory(tests: scenario.tests, runs: scenario.runs)
        let stream = folder.appending(path: "ingest.ndjson")
        let results = try history.writeLedgerStream(to: stream)
        let csv = folder.appending(path: "ingest.csv")
        try history.writeCSV(to: csv)
        var round = 0
        let ingesting = try CPUTime.least(
            repeats: 5, { CPUTime.ofThisProcess },
            prepare: { round += 1 },
            measure: {
                let database = try LedgerDatabase(path: folder.appending(path: "ingest-\(round).sqlite").path)
                try ingest(stream, into: database)
            })
        let importing = try CPUTime.least(repeats: 5, { CPUTime.ofChildren }) {
            let target = folder.appending(path: "import-\(UUID().uuidString).sqlite").path
            try Self.sqlite3(
                target,
                """
                CREATE TABLE result (id INTEGER PRIMARY KEY, runId INTEGER, testId INTEGER, attempt INTEGER,
                    outcome TEXT, startedAt REAL, duration REAL);
                .mode csv
                .import '\(csv.path)' result
                """)
        }
        return [
            .init(
                id: "ingest", text: "ingest of \(results) results ÷ sqlite3 .import of the rows",
                ratio: ingesting / importing)
        ]
    }

    static func sqlite3(_ database: String, _ script: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", "-bail", database]
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw GateLimits.Problem(
                "sqlite3 .import failed (status \(process.terminationStatus)): is sqlite3 installed?")
        }
    }
}

extension SyntheticHistory {
    /// The rows `ingest` stores of ``writeLedgerStream(to:)``, as CSV: run, test, attempt, outcome,
    /// start and duration.
    func writeCSV(to url: URL) throws {
        let writer = try BufferedWriter(url: url)
        var id = 0
        for run in 0..<runs {
            var at = startOfRun(run)
            for test in 0..<tests {
                id += 1
                writer.write("\(id),\(run + 1),\(test + 1),1,\(outcome(test: test, run: run).rawValue),\(at),0.002\n")
                at += 0.002
            }
        }
        try writer.close()
    }
}
