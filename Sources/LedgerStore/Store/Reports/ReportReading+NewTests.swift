import LedgerCore

extension ReportReading {
    /// The tests of a run that the base branch never ran before it (`record --repeat-new`): when
    /// the base branch has no runs, the tests none of the project's earlier runs of the same
    /// configuration ran.
    ///
    /// - Parameters:
    ///   - id: the run.
    ///   - base: the base branch.
    /// - Returns: the new tests that passed, with their seconds in the run, and those that
    ///   failed. None, with no compared runs, when nothing ran before.
    /// - Throws: ``StoreError/noSuchRun(_:)``; any database error.
    package func newTests(run id: String, base: String) throws -> NewTests {
        guard let run = try windowRun(id: id, project: nil) else { throw StoreError.noSuchRun(id) }
        let (compared, branch) = try comparedRuns(for: run, base: base)
        let (known, runs) = try testRows(of: compared)
        guard runs > 0 else { return NewTests(comparedWith: (nil, 0)) }
        var seconds: [Int64: Double] = [:]
        var failed: [Int64] = []
        try forEachSummary(of: [run], seconds: true) { _, summary in
            let entries = summary.entries
            for index in 0..<entries.count where !known.contains(entries.testID(index)) {
                let final = entries.code(index).final
                if final.isPass { seconds[entries.testID(index)] = summary.seconds(index) }
                if final.isFailure { failed.append(entries.testID(index)) }
            }
            return false
        }
        let info = try testInfo(ids: Array(seconds.keys) + failed)
        return NewTests(
            seconds: Dictionary(
                seconds.compactMap { row, value in info[row].map { ($0.key, value) } }, uniquingKeysWith: max),
            failed: Set(failed.compactMap { info[$0]?.key }), comparedWith: (branch, runs))
    }

    /// The tests the runs ``newTests(run:base:)`` compares `id` with ran: what a runner that
    /// repeats new tests itself (Bacon's module) is told is known.
    /// - Throws: ``StoreError/noSuchRun(_:)``; any database error.
    package func knownTests(run id: String, base: String) throws -> TestsKnownBefore {
        guard let run = try windowRun(id: id, project: nil) else { throw StoreError.noSuchRun(id) }
        let (compared, branch) = try comparedRuns(for: run, base: base)
        let (known, runs) = try testRows(of: compared)
        let info = try testInfo(ids: Array(known))
        return TestsKnownBefore(tests: Set(info.values.map(\.key)), comparedWith: (runs > 0 ? branch : nil, runs))
    }

    /// The base branch's runs before `run`, else the project's earlier runs of its configuration.
    private func comparedRuns(for run: WindowRun, base: String) throws -> ([WindowRun], branch: String?) {
        let baseRuns = try baseRuns(of: run, branch: base)
        guard baseRuns.isEmpty else { return (baseRuns, base) }
        let earlier = try windowRuns(project: run.project, count: nil, since: nil)
            .drop { ($0.startedAt, $0.row) >= (run.startedAt, run.row) }
            .filter { $0.configuration == run.configuration }
        return (Array(earlier), nil)
    }

    /// The tests `runs` ran, and how many of the runs ran any: a run that stored no test (its
    /// recording failed) tells nothing of which tests are known.
    private func testRows(of runs: [WindowRun]) throws -> (Set<Int64>, runs: Int) {
        var rows = Set<Int64>()
        var counted = 0
        try forEachSummary(of: runs, seconds: false) { _, summary in
            let entries = summary.entries
            counted += entries.count > 0 ? 1 : 0
            for index in 0..<entries.count { rows.insert(entries.testID(index)) }
            return true
        }
        return (rows, counted)
    }
}

/// The new tests of a run, as ``ReportReading/newTests(run:base:)`` finds them.
public struct NewTests: Sendable {
    /// Each new test that passed, with its seconds in the run (all attempts together), by test id.
    public var seconds: [String: Double] = [:]
    /// The new tests whose final attempt failed.
    public var failed: Set<String> = []
    /// The base branch the run was compared with (`nil` when it has no runs, and the project's
    /// earlier runs were used) and how many runs.
    public var comparedWith: (branch: String?, runs: Int)
}

/// The tests known before a run, as ``ReportReading/knownTests(run:base:)`` finds them.
public struct TestsKnownBefore: Sendable {
    public var tests: Set<String>
    /// The base branch the run was compared with, or `nil`, and how many runs.
    public var comparedWith: (branch: String?, runs: Int)
}
