import Foundation
import LedgerCore
import LedgerStore

/// A runner `record --retries N` can run failed tests again with: once the command has ended and
/// its results are stored, only the failed tests run again, each up to N more times until it
/// passes, as the next attempts of the same run. Muted tests are not retried.
package protocol RetryingRunner {
    /// What the retries are for, whatever the runner.
    var plan: RetryPlan { get }

    /// Runs `batch`'s tests again, the `process`th process of the retries, each attempt
    /// `batch.offset` later, and stores what it wrote.
    /// - Returns: the process's exit status and problems storing what it wrote.
    func runAgain(_ batch: RetrySchedule.Batch, process: Int, in database: LedgerDatabase) throws -> (
        status: Int32, problems: [String]
    )
}

/// What running a run's failed tests again needs, whatever the runner runs them with.
package struct RetryPlan: Sendable {
    package var retries: Int
    /// More failed tests than this, and nothing is retried.
    package var limit: Int
    package var muted: [String]
    /// With `--retry-only known-flaky`, what the ledger called flaky before the run.
    package var knownFlaky: KnownFlakiness?
    package var run: String
    package var metadata: RunMetadata
    /// The command's environment: the retries' is the same, with their attempt offset.
    package var environment: [String: String]
    /// Where each retry writes its outputs, one folder per process.
    package var outputFolder: URL
    package var databasePath: String

    package init(
        retries: Int, limit: Int, muted: [String], knownFlaky: KnownFlakiness? = nil, run: String,
        metadata: RunMetadata, environment: [String: String], outputFolder: URL, databasePath: String
    ) {
        (self.retries, self.limit, self.muted, self.knownFlaky) = (retries, limit, muted, knownFlaky)
        (self.run, self.metadata, self.environment) = (run, metadata, environment)
        (self.outputFolder, self.databasePath) = (outputFolder, databasePath)
    }
}

extension RetryingRunner {
    package var retries: Int { plan.retries }
    package var run: String { plan.run }
    package var metadata: RunMetadata { plan.metadata }
    package var environment: [String: String] { plan.environment }
    package var outputFolder: URL { plan.outputFolder }
    package var databasePath: String { plan.databasePath }

    /// Retries what failed; returns what became of it.
    /// - Throws: what reading the store or storing the journals and console results throws.
    package func retry(in database: LedgerDatabase) throws -> RetryOutcome {
        let (failed, keptRed): ([String], [String])
        let failing = try database.failingTests(run: run)
        let known = try plan.knownFlaky.map { known in
            Set(
                try failing.filter { test in
                    known.covers(test, message: try database.testDetail(test: test, run: run).issues.first?.message)
                })
        }
        switch RetrySelection(failing: failing, muted: plan.muted, limit: plan.limit, knownFlaky: known) {
        case .nothingFailed: return RetryOutcome()
        case .tooMany(let note): return RetryOutcome(notRetried: note)
        case .retry(let tests, let kept): (failed, keptRed) = (tests, kept)
        }
        var schedule = RetrySchedule(attempts: try attempts(of: failed, in: database), retries: retries)
        var outcome = RetryOutcome()
        outcome.keptRed = keptRed
        // A new failure left red can have crashed the command too: its crash keeps the failure.
        let keptAttempts = try attempts(of: keptRed, in: database)
        outcome.crashedTheCommand = (failed + keptRed).filter { test in
            (schedule.attempts[test] ?? keptAttempts[test])?.contains(where: \.isCrash) == true
        }
        (outcome.problems, outcome.interrupted) = try drive(&schedule, in: database) { batch in
            "retrying \(batch.tests.count) failed test(s), attempt \(batch.offset + 1)"
        }
        outcome.passedOnRetry = schedule.passedOnRetry.map { .init(test: $0, attempts: schedule.attempts[$0] ?? []) }
        outcome.stillFailing = schedule.stillFailing.filter { !schedule.abandoned.contains($0) }.map {
            .init(test: $0, attempts: schedule.attempts[$0] ?? [])
        }
        outcome.abandoned = schedule.abandoned
        return outcome
    }

    /// Runs `schedule`'s processes one after another, each announced with `note`, until it has
    /// none left, an interrupt (Ctrl-C) stops it, or `deadline` (seconds since 1970) has passed.
    /// - Returns: problems storing the processes' outputs, and whether an interrupt stopped it.
    package func drive(
        _ schedule: inout RetrySchedule, in database: LedgerDatabase, deadline: Double? = nil,
        note: (RetrySchedule.Batch) -> String
    ) throws -> (problems: [String], interrupted: Bool) {
        var problems: [String] = []
        var process = 0
        while let batch = schedule.next() {
            if let deadline, Date().timeIntervalSince1970 >= deadline {
                schedule.stop()
                break
            }
            process += 1
            // Unbuffered, so that it comes before the process's own output.
            let line = "testledger: \(note(batch)): " + batch.tests.joined(separator: ", ") + "\n"
            FileHandle.standardOutput.write(Data(line.utf8))
            let (status, stored) = try runAgain(batch, process: process, in: database)
            problems += stored
            schedule.take(batch, attempts: try attempts(of: batch.tests, in: database))
            // Interrupted (Ctrl-C): what ran is stored, and nothing more is started.
            if status >= 128 { return (problems, true) }
        }
        return (problems, false)
    }

    /// Each test's attempts in the run, as the store holds them now.
    package func attempts(of tests: [String], in database: LedgerDatabase) throws -> [String: [AttemptState]] {
        var attempts: [String: [AttemptState]] = [:]
        for test in tests {
            attempts[test] = (try? database.testDetail(test: test, run: run))?.attempts ?? []
        }
        return attempts
    }
}
