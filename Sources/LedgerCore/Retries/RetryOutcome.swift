/// What `record --retries` did after the command, for the exit status and the summary.
public struct RetryOutcome: Equatable, Sendable {
    /// A retried test and its attempts in the run, in order.
    public struct Retried: Equatable, Sendable {
        /// The test's id.
        public var test: String
        /// Its attempts in the run, in order: the command's, then the retries'.
        public var attempts: [AttemptState]

        /// A retried test.
        /// - Parameters:
        ///   - test: the test's id.
        ///   - attempts: its attempts in the run, in order.
        public init(test: String, attempts: [AttemptState]) {
            self.test = test
            self.attempts = attempts
        }
    }

    /// The tests that passed on a retry: flaky in this run.
    public var passedOnRetry: [Retried] = []
    /// The tests that failed every attempt they had.
    public var stillFailing: [Retried] = []
    /// The tests that could not be run again: run alone, they left no attempt.
    public var abandoned: [String] = []
    /// Why nothing was retried, when something stopped it before it began.
    public var notRetried: String?
    /// Failed tests not retried because the ledger did not call them flaky before the run
    /// (`--retry-only known-flaky`): new failures, left red.
    public var keptRed: [String] = []
    /// The tests that crashed the command's test process: the tests after them never ran.
    public var crashedTheCommand: [String] = []
    /// Problems storing a retry's outputs, each naming its file.
    public var problems: [String] = []
    /// Whether an interrupt (Ctrl-C) stopped the retries.
    public var interrupted = false

    /// What retrying did; by default, nothing: no test failed.
    /// - Parameters:
    ///   - passedOnRetry: the tests that passed on a retry, with their attempts.
    ///   - stillFailing: the tests that failed every attempt they had, with their attempts.
    ///   - abandoned: the tests that could not be run again.
    ///   - notRetried: why nothing was retried, when something stopped it before it began.
    ///   - crashedTheCommand: the tests that crashed the command's test process.
    ///   - problems: problems storing a retry's outputs, each naming its file.
    ///   - interrupted: whether an interrupt stopped the retries.
    public init(
        passedOnRetry: [Retried] = [], stillFailing: [Retried] = [], abandoned: [String] = [],
        notRetried: String? = nil, crashedTheCommand: [String] = [], problems: [String] = [], interrupted: Bool = false
    ) {
        self.passedOnRetry = passedOnRetry
        self.stillFailing = stillFailing
        self.abandoned = abandoned
        self.notRetried = notRetried
        self.crashedTheCommand = crashedTheCommand
        self.problems = problems
        self.interrupted = interrupted
    }

    /// Whether retrying accounts for the command's failure: its failed tests all passed on a
    /// retry, and no crash kept other tests from running.
    public var passesTheCommand: Bool {
        notRetried == nil && !passedOnRetry.isEmpty && stillFailing.isEmpty && abandoned.isEmpty && keptRed.isEmpty
            && crashedTheCommand.isEmpty && problems.isEmpty && !interrupted
    }

    /// The summary's lines: why nothing was retried, the tests that passed on a retry and those
    /// that failed every one (each with its attempts' outcomes), those left red unretried, those
    /// given up, an interrupt, and
    /// the tests that crashed the command. None when no test failed.
    public var lines: [String] {
        var lines: [String] = []
        if let notRetried { lines.append("testledger: retries: nothing was retried: \(notRetried)") }
        if !passedOnRetry.isEmpty {
            lines.append("testledger: flaky in this run (passed on a retry): " + Self.list(passedOnRetry))
        }
        if !stillFailing.isEmpty {
            lines.append("testledger: failed on every retry: " + Self.list(stillFailing))
        }
        if !keptRed.isEmpty {
            lines.append(
                "testledger: not retried, as the ledger does not call them flaky (--retry-only known-flaky): "
                    + keptRed.joined(separator: ", "))
        }
        if !abandoned.isEmpty {
            lines.append(
                "testledger: retries: could not run again (no test of that name ran): "
                    + abandoned.joined(separator: ", "))
        }
        if interrupted { lines.append("testledger: retries: interrupted; nothing more was retried") }
        if !crashedTheCommand.isEmpty {
            lines.append(
                "testledger: retries: " + crashedTheCommand.joined(separator: ", ")
                    + " crashed the test process, so the tests after it never ran: the command's failure stands")
        }
        return lines
    }

    /// Each test with its attempts' outcomes; one that never ended, its process gone, crashed.
    private static func list(_ tests: [Retried]) -> String {
        tests.map { test in
            let outcomes = test.attempts.map { $0 == .running ? Outcome.crashed.rawValue : $0.description }
            return "\(test.test) (\(outcomes.joined(separator: ", ")))"
        }
        .joined(separator: ", ")
    }
}
