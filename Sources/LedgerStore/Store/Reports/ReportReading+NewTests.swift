import LedgerCore

extension ReportReading {
    /// The tests of a run that the base branch never ran before it (`record --repeat-new`): when
    /// the base branch has no runs, the tests none of the project's earlier runs of the same
    /// configuration ran.
    ///
    /// - Parameters:
    ///   - id: the run.
    ///   - base: the base branch.
    /// - Returns: the new tests whose final attempt passed, with their seconds in the run; those
    ///   that failed are the run's failures already. Empty, with no compared runs, when nothing
    ///   ran before.
    /// - Throws: ``StoreError/noSuchRun(_:)``; any database error.
    package func newTests(run id: String, base: String) throws -> NewTests {
        guard let run = try windowRun(id: id, project: nil) else { throw StoreError.noSuchRun(id) }
        var compared = try baseRuns(of: run, branch: base)
        let branch = compared.isEmpty ? nil : base
        if compared.isEmpty {
            compared = try windowRuns(project: run.project, count: nil, since: nil)
                .drop { ($0.startedAt, $0.row) >= (run.startedAt, run.row) }
                .filter { $0.configuration == run.configuration }
        }
        guard !compared.isEmpty else { return NewTests(comparedWith: (nil, 0)) }
        var known = Set<Int64>()
        try forEachSummary(of: compared, seconds: false) { _, summary in
            let entries = summary.entries
            for index in 0..<entries.count { known.insert(entries.testID(index)) }
            return true
        }
        var seconds: [Int64: Double] = [:]
        try forEachSummary(of: [run], seconds: true) { _, summary in
            let entries = summary.entries
            for index in 0..<entries.count where !known.contains(entries.testID(index)) {
                if entries.code(index).final.isPass { seconds[entries.testID(index)] = summary.seconds(index) }
            }
            return false
        }
        let info = try testInfo(ids: Array(seconds.keys))
        return NewTests(
            seconds: Dictionary(
                seconds.compactMap { row, value in info[row].map { ($0.key, value) } }, uniquingKeysWith: max),
            comparedWith: (branch, compared.count))
    }
}

/// The new tests of a run that passed, as ``ReportReading/newTests(run:base:)`` finds them.
public struct NewTests: Sendable {
    /// Each new test's seconds in the run, all attempts together, by test id.
    public var seconds: [String: Double] = [:]
    /// The base branch the run was compared with (`nil` when it has no runs, and the project's
    /// earlier runs were used) and how many runs.
    public var comparedWith: (branch: String?, runs: Int)
}
