import LedgerCore

/// What the reports read from a store, inside one read transaction: each store gathers the same
/// samples with its own SQL, and the reports are composed from them once, for both
/// (`ReportReading+…`), so that a report is the same whichever store holds the history.
package protocol ReportReading {
    /// The same transaction, for what is written once for both stores.
    var storeReader: any StoreReader { get }
    /// The newest `count` runs of a project (or those since `since`), newest first, by start and
    /// then by row.
    func windowRuns(project: String, count: Int?, since: Double?) throws -> [WindowRun]
    /// The run with this id, of `project` when one is given.
    func windowRun(id: String, project: String?) throws -> WindowRun?
    /// The project of the newest run.
    func latestProject() throws -> String?
    /// The id of the newest run, of `project` when one is given.
    func latestRunID(project: String?) throws -> String?
    /// Key, file and declared layer of tests by their rows.
    func testInfo(ids: [Int64]) throws -> [Int64: TestInfo]
    /// Key, file and declared layer of every test of a project, by row.
    func testInfo(project: String) throws -> [Int64: TestInfo]
    /// Hands the summary of each run to `body`, in the order given, until `body` returns `false`.
    /// - Parameters:
    ///   - runs: the runs whose summaries to read.
    ///   - seconds: whether `body` needs the seconds of each entry.
    ///   - body: given each run and its summary; returns whether to go on.
    /// - Throws: what `body` throws; any database error.
    func forEachSummary(of runs: [WindowRun], seconds: Bool, _ body: (WindowRun, SummaryView) throws -> Bool) throws
    /// The predicate evaluations in `runs` as (test, name, expectation, run row, held, attempts,
    /// waited, timeout), in the order they happened.
    func predicateEvaluations(runs: [WindowRun]) throws -> [PredicateRow]
    /// The tests of `project` in quarantine, active or not, by test id and configuration.
    func quarantine(project: String) throws -> [QuarantinedTest]
    /// The branch the run at `row` tested.
    func branch(ofRun row: Int64) throws -> String?
    /// For each of `runs` with results, the seconds from its start to its first test's: what its
    /// process spent before testing (building, launching).
    func firstTestOffsets(runs: [WindowRun]) throws -> [Int64: Double]
    /// For each of `runs`, its seconds from start to end (for a run that never ended, its
    /// tests'), and whether it ended passed.
    func runEnds(runs: [WindowRun]) throws -> [Int64: (seconds: Double, passed: Bool)]
    /// For each of `runs`, its machine and the highest load average its attempts sampled.
    func runLoads(runs: [WindowRun]) throws -> [Int64: (host: String?, load: Double?)]
    /// Every test's final attempt in the run at `row`, by test id.
    func finalResults(run row: Int64) throws -> [FinalResult]
    /// Every attempt in the run at `row`, by test id and then attempt.
    func attempts(run row: Int64) throws -> [RecordedAttempt]
    /// The activities of the attempts of `tests` (ids) in the run at `row`, each with its test and
    /// attempt number, by attempt and then in the order they started.
    func activities(run row: Int64, tests: [String]) throws -> [(test: String, attempt: Int, activity: StoredActivity)]
    /// The runs of `branch` before `run`, with its project and configuration, newest first.
    func baseRuns(of run: WindowRun, branch: String) throws -> [WindowRun]
    /// The failing (or never ended) attempts of a test in the run at `row`, in attempt order.
    func failingAttempts(run row: Int64, test: Int64) throws -> [FailingAttempt]
    /// Every attempt of `tests` (ids) of `project` in `runs`, with its run's host: the scan a
    /// culprit starts from (``evidenceRows(tests:project:runs:)`` adds what it compares).
    func evidenceAttempts(tests: [String], project: String, runs: [WindowRun]) throws -> [EvidenceRows.Attempt]
    /// Every attempt of the run at `row`, in the columns that place it in time.
    func timeline(run row: Int64) throws -> [RunNeighbourhood.Row]
}

/// A test's row and a configuration: what a history is kept by.
struct TestInConfiguration: Hashable {
    var test: Int64
    var configuration: String
}

/// One predicate evaluation as ``ReportReading/predicateEvaluations(runs:)`` reads it.
package struct PredicateRow {
    package var test: String
    package var name: String
    package var expect: String
    package var run: Int64
    package var held: Bool
    package var attempts: Int
    package var waited: Double
    package var timeout: Double

    package init(
        test: String, name: String, expect: String, run: Int64, held: Bool, attempts: Int, waited: Double,
        timeout: Double
    ) {
        (self.test, self.name, self.expect, self.run) = (test, name, expect, run)
        (self.held, self.attempts, self.waited, self.timeout) = (held, attempts, waited, timeout)
    }
}

/// A failing attempt's outcome (`nil` when it never ended) and its cause: its first issue's
/// message and place, else its own message.
package struct FailingAttempt {
    package var outcome: String?
    package var message: String?
    package var file: String?
    package var line: Int?

    package init(outcome: String?, message: String?, file: String?, line: Int?) {
        (self.outcome, self.message, self.file, self.line) = (outcome, message, file, line)
    }
}

extension ReportReading {
    /// The tests of `project` in quarantine at `time`.
    package func quarantined(project: String, at time: Double) throws -> [QuarantinedTest] {
        try quarantine(project: project).filter { $0.isActive(at: time) }
    }

    /// The predicate evaluations in `runs`, grouped by call site (a test, a predicate name and an
    /// expectation), each site's evaluations in the order they happened, sites sorted.
    package func predicateSites(runs: [WindowRun]) throws -> [PredicateSite] {
        guard !runs.isEmpty else { return [] }
        let byRow = Dictionary(runs.map { ($0.row, $0) }, uniquingKeysWith: { first, _ in first })
        var sites: [String: PredicateSite] = [:]
        for row in try predicateEvaluations(runs: runs) {
            let expect = PredicateExpectation(rawValue: row.expect) ?? .holds
            let run = byRow[row.run]
            let evaluation = PredicateEvaluation(
                run: run?.id ?? "", revision: run?.revision, held: row.held, attempts: row.attempts,
                waited: row.waited, timeout: row.timeout)
            sites[
                [row.test, row.name, expect.rawValue].joined(separator: "\u{0}"),
                default: PredicateSite(test: row.test, name: row.name, expect: expect, evaluations: [])
            ].evaluations.append(evaluation)
        }
        return sites.values.sorted {
            ($0.test, $0.name, $0.expect.rawValue) < ($1.test, $1.name, $1.expect.rawValue)
        }
    }
}
