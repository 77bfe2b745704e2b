/// `record --repeat-new N`: new tests (ones the base branch never ran) run `N` more times after
/// the suite, and any failure among their runs keeps them from merging. Pure: which tests fit a
/// time budget, and the verdict on each from its attempts.
public enum NewTestRepeats {
    /// The tests whose repeats fit in `budget`, cheapest first (ties by id), and those beyond it.
    /// - Parameters:
    ///   - budget: the seconds the repeats may take together; `nil` for no bound.
    ///   - repeats: how many more times each test runs.
    ///   - seconds: each new test's seconds in the run so far.
    /// - Returns: the tests to repeat and those left unproven, each sorted by id.
    public static func within(budget: Double?, repeats: Int, seconds: [String: Double]) -> (
        chosen: [String], beyond: [String]
    ) {
        guard let budget else { return (seconds.keys.sorted(), []) }
        var spent = 0.0
        var chosen: [String] = []
        var beyond: [String] = []
        for (test, cost) in seconds.sorted(by: { ($0.value, $0.key) < ($1.value, $1.key) }) {
            let repeated = cost * Double(repeats)
            if beyond.isEmpty, spent + repeated <= budget {
                spent += repeated
                chosen.append(test)
            } else {
                beyond.append(test)
            }
        }
        return (chosen.sorted(), beyond.sorted())
    }

    /// The outcome when no earlier run tells new tests from known ones: nothing is repeated.
    public static func nothingToCompare(base: String) -> Outcome {
        Outcome(notRepeated: "no earlier run of \(base) or of this configuration tells new tests from known ones")
    }

    /// What repeating new tests found.
    public struct Outcome: Equatable, Sendable {
        /// A new test that failed one of its runs, with how many.
        public struct Flaky: Equatable, Sendable {
            public var test: String
            public var failed: Int
            public var runs: Int

            public init(test: String, failed: Int, runs: Int) {
                (self.test, self.failed, self.runs) = (test, failed, runs)
            }
        }

        /// The new tests that passed every run: the first and each repeat.
        public var proven: [String] = []
        /// The new tests that failed at least one of their runs.
        public var flaky: [Flaky] = []
        /// The new tests that did not run every repeat (the budget ran out, or they could not be
        /// run again), with no failure so far.
        public var unproven: [String] = []
        /// How many runs each proven test had.
        public var runs = 0
        /// The budget, when one bounded the repeats.
        public var budget: Double?
        /// Why nothing was repeated, when nothing could be.
        public var notRepeated: String?
        /// Whether an interrupt (Ctrl-C) stopped the repeats: the job fails, unproven.
        public var interrupted = false

        public init(
            proven: [String] = [], flaky: [Flaky] = [], unproven: [String] = [], runs: Int = 0,
            budget: Double? = nil, notRepeated: String? = nil
        ) {
            (self.proven, self.flaky, self.unproven, self.runs) = (proven, flaky, unproven, runs)
            (self.budget, self.notRepeated) = (budget, notRepeated)
        }

        /// The verdict on each repeated test from its attempts in the run.
        /// - Parameters:
        ///   - attempts: each repeated test's attempts in the run, in order.
        ///   - repeats: how many repeats each was to have.
        ///   - added: how many it had.
        ///   - beyond: the new tests the budget left out before they were repeated.
        ///   - budget: the budget.
        public init(
            attempts: [String: [AttemptState]], repeats: Int, added: (String) -> Int, beyond: [String],
            budget: Double?
        ) {
            self.init(runs: repeats + 1, budget: budget)
            for (test, states) in attempts.sorted(by: { $0.key < $1.key }) {
                let failed = states.filter(\.isFailure).count
                if failed > 0 {
                    flaky.append(Flaky(test: test, failed: failed, runs: states.count))
                } else if added(test) < repeats {
                    unproven.append(test)
                } else {
                    proven.append(test)
                }
            }
            unproven = (unproven + beyond).sorted()
        }

        /// Whether the job fails: a new test failed one of its runs, or an interrupt stopped them.
        public var failsTheJob: Bool { !flaky.isEmpty || interrupted }

        /// The summary's lines.
        public var lines: [String] {
            var lines: [String] = []
            if let notRepeated { lines.append("testledger: --repeat-new: nothing was repeated: \(notRepeated)") }
            if notRepeated == nil, proven.isEmpty, flaky.isEmpty, unproven.isEmpty {
                lines.append("testledger: --repeat-new: no new test to prove")
            }
            for test in flaky {
                lines.append(
                    "testledger: \(test.failed == test.runs ? "failing" : "flaky") new test: \(test.test) failed "
                        + "\(test.failed) of \(test.runs) runs: not ready to merge")
            }
            if !proven.isEmpty {
                lines.append(
                    "testledger: new tests proven (passed \(runs) of \(runs) runs): "
                        + Self.named(proven))
            }
            if !unproven.isEmpty {
                let why =
                    interrupted
                    ? "interrupted" : budget.map { "beyond the \(Self.seconds($0)) budget" } ?? "could not be run again"
                lines.append("testledger: new tests unproven (\(why)): " + Self.named(unproven))
            }
            return lines
        }

        private static func named(_ tests: [String]) -> String {
            tests.prefix(20).joined(separator: ", ") + (tests.count > 20 ? " and \(tests.count - 20) more" : "")
        }

        private static func seconds(_ value: Double) -> String {
            value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
        }
    }
}
