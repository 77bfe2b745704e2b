import Foundation

extension RunReport {
    /// The runs a run's failures were compared with: the base branch's runs before it, of its
    /// configuration; or, when the base branch has none (runs recorded outside git and CI carry no
    /// branch), the project's runs of its configuration just before it, as many as the flaky
    /// report's window.
    public struct Comparison: Codable, Hashable, Sendable {
        /// The base branch, when its runs were compared; `nil` when the project's earlier runs were.
        public var branch: String?
        /// How many runs were compared.
        public var runs: Int

        public init(branch: String?, runs: Int) {
            self.branch = branch
            self.runs = runs
        }

        enum CodingKeys: String, CodingKey {
            case branch, runs
        }

        /// Encodes both keys; `branch` as `null` when the project's earlier runs were compared.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(branch, forKey: .branch)
            try container.encode(runs, forKey: .runs)
        }
    }

    /// The compared runs' history, as the store gives it.
    public struct BaseHistory: Hashable, Sendable {
        /// The base branch, when the runs compared are its own; `nil` when it has no run before this
        /// one and the project's earlier runs of the configuration stand in.
        public var branch: String?
        /// How many runs were compared.
        public var runs: Int
        /// Tests that failed in any compared run.
        public var everFailed: Set<String>
        /// Tests the newest compared run failed.
        public var newestFailed: Set<String>
        /// That run's id; `nil` when no run was compared.
        public var newestRun: String?
        /// For each test the newest compared run failed: how many of the newest compared runs in a
        /// row failed it.
        public var failingStreaks: [String: Int]

        /// - Parameters:
        ///   - branch: the base branch, when its runs were compared; `nil` for the project's earlier runs.
        ///   - runs: how many runs were compared.
        ///   - everFailed: tests that failed in any compared run.
        ///   - newestFailed: tests the newest compared run failed.
        ///   - newestRun: the newest compared run's id.
        ///   - failingStreaks: the newest compared runs in a row that failed each test.
        public init(
            branch: String?, runs: Int = 0, everFailed: Set<String> = [], newestFailed: Set<String> = [],
            newestRun: String? = nil, failingStreaks: [String: Int] = [:]
        ) {
            self.branch = branch
            self.runs = runs
            self.everFailed = everFailed
            self.newestFailed = newestFailed
            self.newestRun = newestRun
            self.failingStreaks = failingStreaks
        }

        /// What was compared, as the report states it.
        public var comparison: Comparison { Comparison(branch: branch, runs: runs) }
    }
}

// MARK: - Evidence in words

extension RunReport.BaseHistory {
    /// `never failed on main before`, `never failed in the 5 runs before`.
    var neverFailed: String {
        if let branch { return "never failed on \(branch) before" }
        return runs == 0 ? "no run before to compare with" : "never failed in \(Self.theRuns(runs)) before"
    }

    /// `failed on main before; passes in its newest run`.
    var failedBeforeNotNewest: String {
        if let branch { return "failed on \(branch) before; passes in its newest run" }
        return "failed in \(Self.theRuns(runs)) before; passes in the newest of them"
    }

    /// `the newest main run (1a2b3c4d)`, `the run before (1a2b3c4d)`.
    var newest: String {
        let id = newestRun.map { " (\(String($0.prefix(8))))" } ?? ""
        return (branch.map { "the newest \($0) run" } ?? "the run before") + id
    }

    /// A broken test's evidence: its streak over the compared runs when it is one, else its
    /// figures over the flaky report's window, and what the newest compared run did.
    func broken(_ test: FlakyReport.BrokenTest, newestFailed: Bool) -> String {
        let streak = failingStreaks[test.test] ?? 0
        if newestFailed, streak > 1 {
            return "broken: failed the last \(streak) runs" + (branch.map { " of \($0)" } ?? "")
        }
        let figures = "broken: failed \(test.failures) of \(test.runs) runs"
        guard newestRun != nil else { return figures }
        return figures + "; \(newest) " + (newestFailed ? "failed it too" : "passed it")
    }

    /// `the run`, `the 5 runs`.
    static func theRuns(_ count: Int) -> String { count == 1 ? "the run" : "the \(count) runs" }
}
