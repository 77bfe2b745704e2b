import LedgerCore

extension GeneratedHistory {
    /// Ten runs of one test, each its only test, failing in runs 1, 4 and 7 (0-based) and passing
    /// in the others: a history in which the ledger calls the test flaky, with p = 0.3.
    /// - Parameters:
    ///   - test: the test's stable id.
    ///   - project: the runs' project.
    /// - Returns: each run's events as JSON Lines, oldest first.
    public static func flakyRuns(of test: String, project: String) -> [String] {
        (0..<10).map { index in
            let run = String(format: "00000000-0000-4000-8000-%012d", index)
            let start = 1_790_000_000.0 + Double(index) * 600
            let attempt: [String: JSONValue] = ["test": .string(test), "attempt": 1]
            let outcome: JSONValue = index % 3 == 1 ? "failed" : "passed"
            return [
                line("run.start", run, start, ["project": .string(project), "source": "xctest"]),
                line("test.start", run, start + 1, attempt),
                line("test.end", run, start + 2, attempt.merging(["outcome": outcome, "duration": 1]) { $1 }),
                line("run.end", run, start + 3, [:]),
            ].joined(separator: "\n") + "\n"
        }
    }
}
