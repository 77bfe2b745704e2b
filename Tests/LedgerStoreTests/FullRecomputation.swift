import Foundation
import GRDB
import LedgerCore
import LedgerStore

/// The reports worked out the slow way, from every stored result of the window: what the
/// summaries kept at ingest must always agree with. A reference, not a test: the assertions are
/// in `ReportRecomputationTests` and `MigrationTests`, which compare the reports with it.
enum FullRecomputation {
    /// Every test's attempts in one run: test row → outcomes in attempt order and seconds.
    struct RunResults {
        var run: WindowRun
        var tests: [(id: Int64, attempts: [Outcome], seconds: Double)]
    }

    static func results(_ database: LedgerDatabase, _ runs: [WindowRun]) throws -> [RunResults] {
        try database.writer.read { db in
            try runs.map { run in
                var tests: [(id: Int64, attempts: [Outcome], seconds: Double)] = []
                let rows = try Row.fetchAll(
                    db,
                    sql:
                        "SELECT testId, outcome, coalesce(duration, 0) FROM result WHERE runId = ? ORDER BY testId, attempt",
                    arguments: [run.row])
                for row in rows {
                    let outcome = (row[1] as String?).flatMap(Outcome.init(rawValue:)) ?? .crashed
                    if tests.last?.id == row[0] {
                        tests[tests.count - 1].attempts.append(outcome)
                        tests[tests.count - 1].seconds += row[2] as Double
                    } else {
                        tests.append((row[0], [outcome], row[2]))
                    }
                }
                return RunResults(run: run, tests: tests)
            }
        }
    }

    static func tests(_ database: LedgerDatabase) throws -> [Int64: (key: String, file: String?, layer: Layer?)] {
        try database.writer.read { db in
            var tests: [Int64: (key: String, file: String?, layer: Layer?)] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, key, file, layer FROM test") {
                tests[row[0]] = (row[1], row[2], (row[3] as String?).flatMap(Layer.init(rawValue:)))
            }
            return tests
        }
    }

    static func predicateSites(_ database: LedgerDatabase, _ runs: [WindowRun]) throws -> [PredicateSite] {
        let byRow = Dictionary(uniqueKeysWithValues: runs.map { ($0.row, $0) })
        return try database.writer.read { db in
            var sites: [String: PredicateSite] = [:]
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT t.key, p.name, p.expect, r.runId, p.held, p.attempts, p.waited, p.timeout
                    FROM result r JOIN predicate p ON p.resultId = r.id JOIN test t ON t.id = r.testId
                    ORDER BY p.at, p.id
                    """)
            for row in rows {
                guard let run = byRow[row[3] as Int64] else { continue }
                let expect = PredicateExpectation(rawValue: row[2]) ?? .holds
                let evaluation = PredicateEvaluation(
                    run: run.id, revision: run.revision, held: row[4], attempts: row[5], waited: row[6], timeout: row[7]
                )
                sites[
                    [row[0], row[1], expect.rawValue].joined(separator: "\u{0}"),
                    default: PredicateSite(
                        test: row[0], name: row[1], expect: expect, evaluations: [])
                ].evaluations.append(evaluation)
            }
            return sites.values.sorted {
                ($0.test, $0.name, $0.expect.rawValue) < ($1.test, $1.name, $1.expect.rawValue)
            }
        }
    }

    static func flaky(
        _ database: LedgerDatabase, project: String, runs count: Int, since: Double?, thresholds: FlakyThresholds,
        now: Double
    ) throws -> FlakyReport {
        let runs = try database.windowRuns(project: project, count: count, since: since)
        let all = try results(database, runs.reversed())
        let tests = try tests(database)
        var histories: [String: TestHistory] = [:]
        for results in all {
            for test in results.tests {
                let key = "\(test.id)\u{0}\(results.run.configuration)"
                histories[
                    key,
                    default: TestHistory(
                        test: tests[test.id]?.key ?? "", configuration: results.run.configuration, samples: [])
                ].samples.append(
                    RunSample(
                        run: results.run.id, at: results.run.startedAt, revision: results.run.revision,
                        attempts: test.attempts))
            }
        }
        let health = all.map { results in
            RunHealth(
                run: results.run.id, at: results.run.startedAt, tests: results.tests.count,
                failed: results.tests.filter { ($0.attempts.last ?? .skipped).isFailure }.count)
        }
        return FlakinessAnalysis.report(
            histories: Array(histories.values), health: health.reversed(),
            predicates: try predicateSites(database, runs), now: now, thresholds: thresholds)
    }

    static func pyramid(_ database: LedgerDatabase, runs: [WindowRun], classifier: LayerClassifier) throws
        -> PyramidReport
    {
        let tests = try tests(database)
        var seen = Set<Int64>()
        var samples: [PyramidSample] = []
        for results in try results(database, runs) {
            for test in results.tests where seen.insert(test.id).inserted {
                guard let about = tests[test.id] else { continue }
                let sample = RunSample(run: results.run.id, at: 0, attempts: test.attempts)
                samples.append(
                    PyramidSample(
                        layer: classifier.layer(explicit: about.layer, id: about.key, file: about.file),
                        seconds: test.seconds, failed: sample.final.isFailure, flaky: sample.flakyInRun))
            }
        }
        return PyramidAnalysis.report(run: runs.count == 1 ? runs[0].id : nil, runs: runs.count, samples: samples)
    }
}
