import LedgerCore

extension ReportReading {
    /// The tests of a run that the base branch never ran before it (`record --repeat-new`): when
    /// the base branch has no runs, the tests none of the project's earlier runs of the same
    /// configuration ran.
    ///
    /// - Parameters:
    ///   - id: the run.
    ///   - known: the tests known before it; its own when `nil` (``knownTests(run:base:)``).
    ///   - base: the base branch.
    /// - Returns: the new tests that passed, with their seconds in the run, and those that
    ///   failed. None, with no compared runs, when nothing ran before.
    /// - Throws: ``StoreError/noSuchRun(_:)``; any database error.
    package func newTests(run id: String, known: TestsKnownBefore? = nil, base: String) throws -> NewTests {
        let known = try known ?? knownTests(run: id, base: base)
        guard let run = try windowRun(id: id, project: nil) else { throw StoreError.noSuchRun(id) }
        guard known.comparedWith.runs > 0 else { return NewTests(comparedWith: known.comparedWith) }
        var seconds: [Int64: Double] = [:]
        var failed: [Int64] = []
        try forEachSummary(of: [run], seconds: true) { _, summary in
            let entries = summary.entries
            for index in 0..<entries.count {
                let final = entries.code(index).final
                if final.isPass { seconds[entries.testID(index)] = summary.seconds(index) }
                if final.isFailure { failed.append(entries.testID(index)) }
            }
            return false
        }
        let info = try testInfo(ids: Array(seconds.keys) + failed)
        let isNew = { (row: Int64) in info[row].map { !known.tests.contains($0.key) } ?? false }
        return NewTests(
            seconds: Dictionary(
                seconds.compactMap { row, value in isNew(row) ? info[row].map { ($0.key, value) } : nil },
                uniquingKeysWith: max),
            failed: Set(failed.filter(isNew).compactMap { info[$0]?.key }), comparedWith: known.comparedWith)
    }

    /// The tests the base branch ran before the run `id`, else the tests the project's earlier
    /// runs of its configuration ran.
    /// - Throws: ``StoreError/noSuchRun(_:)``; any database error.
    package func knownTests(run id: String, base: String) throws -> TestsKnownBefore {
        guard let run = try windowRun(id: id, project: nil) else { throw StoreError.noSuchRun(id) }
        return try knownTests(before: run, base: base)
    }

    /// The tests known before a run of `configuration` starting at `time` that the store does not
    /// hold (one being recorded on a CI machine): what a team's server tells `record`.
    /// - Throws: any database error.
    package func knownTests(project: String, configuration: String, base: String, at time: Double) throws
        -> TestsKnownBefore
    {
        let coming = WindowRun(
            row: -1, id: "", project: project, startedAt: time, revision: nil, configuration: configuration)
        return try knownTests(before: coming, base: base)
    }

    private func knownTests(before run: WindowRun, base: String) throws -> TestsKnownBefore {
        var compared = try baseRuns(of: run, branch: base)
        let branch = compared.isEmpty ? nil : base
        if compared.isEmpty {
            compared = try windowRuns(project: run.project, count: nil, since: nil)
                .drop { ($0.startedAt, $0.row) >= (run.startedAt, run.row) }
                .filter { $0.configuration == run.configuration }
        }
        var rows = Set<Int64>()
        // A run that stored no test (its recording failed) tells nothing of which tests are known.
        var counted = 0
        try forEachSummary(of: compared, seconds: false) { _, summary in
            let entries = summary.entries
            counted += entries.count > 0 ? 1 : 0
            for index in 0..<entries.count { rows.insert(entries.testID(index)) }
            return true
        }
        let info = try testInfo(ids: Array(rows))
        return TestsKnownBefore(
            tests: Set(info.values.map(\.key)),
            comparedWith: .init(branch: counted > 0 ? branch : nil, runs: counted))
    }
}

/// The new tests of a run, as ``ReportReading/newTests(run:known:base:)`` finds them.
public struct NewTests: Sendable {
    /// Each new test that passed, with its seconds in the run (all attempts together), by test id.
    public var seconds: [String: Double] = [:]
    /// The new tests whose final attempt failed.
    public var failed: Set<String> = []
    /// The base branch the run was compared with (`nil` when it has no runs, and the project's
    /// earlier runs were used) and how many runs.
    public var comparedWith: RunReport.Comparison
}

/// The tests known before a run, as ``ReportReading/knownTests(run:base:)`` finds them.
public struct TestsKnownBefore: Codable, Sendable {
    public var tests: Set<String>
    /// The base branch the run was compared with, or `nil`, and how many runs that stored tests.
    public var comparedWith: RunReport.Comparison

    public init(tests: Set<String>, comparedWith: RunReport.Comparison) {
        (self.tests, self.comparedWith) = (tests, comparedWith)
    }
}
