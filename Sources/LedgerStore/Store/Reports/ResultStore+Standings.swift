import Foundation
import LedgerCore

extension ResultStore {
    /// Where each of `tests` stands over `project`'s newest `count` runs (since `since`), judged
    /// as `report flaky` judges them, in the quarantine `quarantine` gives for the project: every
    /// door's `status` (the command, the API, `mcp`). An empty ledger (no project) knows no test.
    /// - Parameters:
    ///   - tests: the tests asked about.
    ///   - project: the project; the newest run's when `nil`.
    ///   - count: the window's runs.
    ///   - since: only runs since then (seconds since 1970), when given.
    ///   - thresholds: what makes a test flaky or broken.
    ///   - now: the time the quarantine and recovery are judged at.
    ///   - quarantine: the project's quarantine in force; the ledger's own when `nil`.
    /// - Returns: a standing per test, in the order asked.
    /// - Throws: what reading the ledger or the quarantine throws.
    public func standings(
        of tests: [String], project: String?, runs count: Int, since: Double?, thresholds: FlakyThresholds,
        now: Double, quarantine: ((String) throws -> [QuarantinedTest])? = nil
    ) throws -> [TestStanding] {
        guard let project = try project ?? latestProject() else {
            let empty = FlakyReport(runs: 0, flaky: [], broken: [], recovered: [], predicates: [], noiseRuns: [])
            return tests.map { TestStanding.of($0, report: empty, quarantine: [], runs: .none) }
        }
        let report = try flakyReport(project: project, runs: count, since: since, thresholds: thresholds, now: now)
        let quarantined = try quarantine?(project) ?? quarantined(project: project, at: now)
        let strips = try outcomeStrips(project: project, tests: tests, runs: count, since: since)
        let noise = Set(report.noiseRuns.map(\.run))
        let fixes = Dictionary(
            try fixes(project: project).map { ($0.test, $0) }, uniquingKeysWith: { first, _ in first })
        return tests.map { test in
            TestStanding.of(
                test, report: report, quarantine: quarantined, runs: .init(strips[test] ?? [], leavingOut: noise),
                fix: fixes[test])
        }
    }
}

extension TestStanding.Runs {
    /// The runs of `strip` (oldest first) a test ran in to an outcome: noise runs, skips and
    /// attempts still running left out, as `report flaky` leaves them out.
    public init(_ strip: [AttemptsInRun], leavingOut noise: Set<String>) {
        let finals = strip.filter { !noise.contains($0.run) }.compactMap { $0.attempts.last ?? nil }
            .filter { $0 != .skipped }
        self.init(
            count: finals.count, failed: finals.count(where: \.isFailure), newestFailed: finals.last?.isFailure ?? false
        )
    }
}
