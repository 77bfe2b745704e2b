import Foundation

/// What `verify --isolate` found: whether a test's failure needs another test beside it, from the
/// same number of runs alone and beside that test.
///
/// Its JSON is a public contract: keys are only ever added.
public struct IsolationReport: Codable, Hashable, Sendable {
    /// The conclusion.
    public enum Verdict: String, Codable, Sendable, CaseIterable {
        /// It failed beside the neighbour significantly more often than alone.
        case needsNeighbour = "needs-neighbour"
        /// It failed alone about as often as beside the neighbour: the cause is its own.
        case failsAlone = "fails-alone"
        /// It failed beside the neighbour only, but too seldom to tell from chance: more runs
        /// would tell.
        case inconclusive
        /// It never failed.
        case notReproduced = "not-reproduced"
    }

    /// How the runs with the neighbour were run.
    public enum Arrangement: String, Codable, Sendable {
        /// In one process, side by side as the runner schedules them (an overlapping test, a
        /// co-failure).
        case beside
        /// In one process, one test at a time in the runner's order (a preceding test).
        case before
    }

    /// The runs of one half: how many, and how many failed.
    public struct Tally: Codable, Hashable, Sendable {
        public var runs: Int
        public var failed: Int

        /// Creates a tally.
        public init(runs: Int, failed: Int) {
            (self.runs, self.failed) = (runs, failed)
        }

        /// A tally of the runs' results, `true` for each that passed.
        public init(passes: [Bool]) {
            self.init(runs: passes.count, failed: passes.count { !$0 })
        }
    }

    /// The test's stable id.
    public var test: String
    /// The test run with it.
    public var neighbour: String
    /// How the neighbour ran with it.
    public var arrangement: Arrangement
    /// The runs alone.
    public var alone: Tally
    /// The runs with the neighbour.
    public var beside: Tally
    /// The one-sided p-value of Fisher's exact test that it fails more often with the neighbour.
    public var p: Double
    /// The conclusion.
    public var verdict: Verdict
    /// The verification run that holds every attempt.
    public var run: String

    /// The largest p-value that counts as needing the neighbour.
    public static let significance = 0.05

    /// Judges the two halves.
    /// - Parameters:
    ///   - test: the test's stable id.
    ///   - neighbour: the test run with it.
    ///   - arrangement: how the neighbour ran with it.
    ///   - alone: the test's results alone, `true` for a pass.
    ///   - beside: its results with the neighbour.
    ///   - run: the verification run.
    public init(
        test: String, neighbour: String, arrangement: Arrangement, alone: [Bool], beside: [Bool], run: String
    ) {
        (self.test, self.neighbour, self.arrangement, self.run) = (test, neighbour, arrangement, run)
        self.alone = Tally(passes: alone)
        self.beside = Tally(passes: beside)
        p = Separation.fisherRightTail(
            failingWith: self.beside.failed, failing: self.beside.failed + self.alone.failed,
            passingWith: self.beside.runs - self.beside.failed,
            passing: self.alone.runs - self.alone.failed
                + self.beside.runs - self.beside.failed)
        verdict = Self.judge(alone: self.alone, beside: self.beside, p: p)
    }

    static func judge(alone: Tally, beside: Tally, p: Double) -> Verdict {
        if alone.failed + beside.failed == 0 { return .notReproduced }
        if p <= significance { return .needsNeighbour }
        return alone.failed > 0 ? .failsAlone : .inconclusive
    }

    /// The finding in one sentence: "fails only beside `clearsCart`: 6 of 20 vs 0 of 20 alone".
    public var sentence: String {
        let counts = "\(beside.failed) of \(beside.runs) vs \(alone.failed) of \(alone.runs) alone"
        let with = arrangement == .before ? "after" : "beside"
        switch verdict {
        case .needsNeighbour:
            return "fails \(alone.failed == 0 ? "only" : "more often") \(with) `\(neighbour)`: \(counts)"
        case .failsAlone:
            return "fails alone too: \(alone.failed) of \(alone.runs) alone vs \(beside.failed) of "
                + "\(beside.runs) \(with) `\(neighbour)`; the neighbour is not the cause"
        case .inconclusive:
            return "failed \(with) `\(neighbour)` only, too seldom to tell from chance (\(counts), "
                + "p = \(String(format: "%.2f", p))): run more"
        case .notReproduced:
            return "did not fail in \(alone.runs) runs alone nor \(beside.runs) \(with) `\(neighbour)`"
        }
    }
}
