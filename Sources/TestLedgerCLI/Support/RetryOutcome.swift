import LedgerCore

/// What `record --retries` did after the command, for the exit status and the summary.
struct RetryOutcome {
    /// A retried test and its attempts in the run, in order.
    struct Retried: Equatable {
        var test: String
        var attempts: [AttemptState]
    }

    /// The tests that passed on a retry: flaky in this run.
    var passedOnRetry: [Retried] = []
    /// The tests that failed every attempt they had.
    var stillFailing: [Retried] = []
    /// The tests that could not be run again: run alone, they left no attempt.
    var abandoned: [String] = []
    /// Why nothing was retried, when something stopped it before it began.
    var notRetried: String?
    /// The tests that crashed the command's test process: the tests after them never ran.
    var crashedTheCommand: [String] = []
    /// Problems storing a retry's outputs, each naming its file.
    var problems: [String] = []
    /// Whether an interrupt (Ctrl-C) stopped the retries.
    var interrupted = false

    /// Whether retrying accounts for the command's failure: its failed tests all passed on a
    /// retry, and no crash kept other tests from running.
    var passesTheCommand: Bool {
        notRetried == nil && !passedOnRetry.isEmpty && stillFailing.isEmpty && abandoned.isEmpty
            && crashedTheCommand.isEmpty && problems.isEmpty && !interrupted
    }

    /// The summary's lines.
    var lines: [String] {
        var lines: [String] = []
        if let notRetried { lines.append("testledger: retries: nothing was retried: \(notRetried)") }
        if !passedOnRetry.isEmpty {
            lines.append("testledger: flaky in this run (passed on a retry): " + Self.list(passedOnRetry))
        }
        if !stillFailing.isEmpty {
            lines.append("testledger: failed on every retry: " + Self.list(stillFailing))
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
