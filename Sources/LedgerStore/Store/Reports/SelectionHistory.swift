import Foundation
import LedgerCore

/// What selection needs of the ledger: the runs that vouch for the test targets' hashes, the
/// tests those runs stored, the tests the base branch ran, and the tests that failed or were
/// flaky lately. A team's server answers it to CI machines (`GET …/target-hashes`).
public struct SelectionHistory: Codable, Sendable, Equatable {
    /// The run that vouches for each target's hash, by target name.
    public var vouches: [String: Vouch]
    /// The tests each vouching run stored, by run id.
    public var tests: [String: [String]]
    /// The tests the base branch ran; `nil` when it is not known.
    public var known: [String]?
    /// The tests that failed or were flaky within the window.
    public var troubled: [String]

    public init(vouches: [String: Vouch], tests: [String: [String]], known: [String]?, troubled: [String]) {
        (self.vouches, self.tests, self.known, self.troubled) = (vouches, tests, known, troubled)
    }

    /// Nothing vouched for: every test runs.
    public static let none = SelectionHistory(vouches: [:], tests: [:], known: nil, troubled: [])
}

extension ResultStore {
    /// What selection needs of `project`'s ledger.
    ///
    /// - Parameters:
    ///   - project: the project.
    ///   - hashes: each test target's hash, by name.
    ///   - base: the base branch: its runs vouch, and its tests are the known ones.
    ///   - branch: this branch, whose runs vouch too.
    ///   - configuration: the configuration whose earlier runs tell the known tests when the base has none.
    ///   - window: the runs within which a failing or flaky test always runs.
    ///   - thresholds: what makes a test flaky.
    /// - Returns: the vouching runs and their tests; the known and troubled tests only when a run vouches.
    /// - Throws: what the database throws.
    public func selectionHistory(
        project: String, hashes: [String: String], base: String, branch: String?, configuration: String,
        window: Int, thresholds: FlakyThresholds
    ) throws -> SelectionHistory {
        let now = Date().timeIntervalSince1970
        let branches = Array(Set([base] + (branch.map { [$0] } ?? []))).sorted()
        let vouches = try reading {
            try $0.reader.storeReader.vouches(project: project, hashes: hashes, branches: branches)
        }
        guard !vouches.isEmpty else { return .none }
        var tests: [String: [String]] = [:]
        for run in Set(vouches.values.map(\.run)) { tests[run] = try testsStored(run: run) }
        let known = try knownTests(project: project, configuration: configuration, base: base, at: now)
        let flaky = try flakyReport(project: project, runs: window, since: nil, thresholds: thresholds, now: now)
        var troubled = Set(flaky.flaky.map(\.test) + flaky.broken.map(\.test))
        for run in try windowRuns(project: project, count: window, since: nil) {
            troubled.formUnion(try failingTests(run: run.id))
        }
        return SelectionHistory(
            vouches: vouches, tests: tests, known: known.comparedWith.runs > 0 ? known.tests.sorted() : nil,
            troubled: troubled.sorted())
    }
}
