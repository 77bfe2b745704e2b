import Foundation
import LedgerCore
import LedgerStore

/// What each runner does for `record` and `verify`: what its tests are told, how what it wrote is
/// stored, and what runs its tests again.
extension TestCommand {
    /// The command's environment: this process's, with the run's variables as the runner passes
    /// them to its tests (xcodebuild as `TEST_RUNNER_*`), and for a module what `module` adds.
    package func environment(recorded: [String: String], module: () throws -> [String: String] = { [:] }) rethrows
        -> [String: String]
    {
        var added = recorded
        switch self {
        case .swiftTest: break
        case .xcodebuild: added.merge(XcodebuildInvocation.testRunnerEnvironment(recorded)) { given, _ in given }
        case .module: added.merge(try module()) { _, new in new }
        }
        return ProcessInfo.processInfo.environment.merging(added) { _, recorded in recorded }
    }

    /// Stores what the command wrote once it ended with `status`: what its tests journaled, and
    /// `swift test`'s outputs or xcodebuild's result bundle (none when it `ran` nothing).
    /// - Returns: what could not be stored, each naming its file.
    package func storeOutputs(
        status: Int32, ran: Bool, console: ConsoleCollector, run: String, metadata: RunMetadata, databasePath: String,
        in database: LedgerDatabase
    ) throws -> [String] {
        switch self {
        case .swiftTest(let invocation):
            // What the test processes journaled joins the run first.
            let outputs = SwiftTestOutputs(invocation: invocation, console: console, run: run, metadata: metadata)
            return try outputs.store(in: database, databasePath: databasePath) { invocation.listedTests() }
        case .xcodebuild(let invocation):
            let processes = XcodebuildProcesses(
                run: run, metadata: metadata, environment: [:], databasePath: databasePath)
            guard ran else {
                database.recoverPendingJournals(databasePath: databasePath)
                return []
            }
            return processes.store(bundle: invocation.resultBundle.path, status: status, in: database)
        case .module:
            database.recoverPendingJournals(databasePath: databasePath)
            return []
        }
    }

    /// What runs the failed tests again after the command: `swift test` and `xcodebuild` here; a
    /// module retries in its own process.
    package func retryingRunner(_ plan: RetryPlan) -> (any RetryingRunner)? {
        switch self {
        case .swiftTest(let invocation): SwiftTestRetries(invocation: invocation, plan: plan)
        case .xcodebuild(let invocation): XcodebuildRetries(invocation: invocation, plan: plan)
        case .module: nil
        }
    }

    /// Repeats the new tests that passed, `plan.retries` more times each within `budget`:
    /// `swift test` here; a module repeated them in its process, and its repeats are read from the
    /// ledger; xcodebuild repeats none.
    /// - Returns: what the repeats found, and problems storing them.
    package func repeatNewTests(
        _ plan: RetryPlan, known: TestsKnownBefore, base: String, budget: Double?, in database: LedgerDatabase
    ) throws -> (outcome: NewTestRepeats.Outcome?, problems: [String]) {
        switch self {
        case .swiftTest(let invocation):
            let (repeated, problems) = try SwiftTestRetries(invocation: invocation, plan: plan)
                .repeatNew(known: known, base: base, budget: budget, in: database)
            return (repeated, problems)
        case .module:
            let repeated = try ModuleRepeats.outcome(
                run: plan.run, known: known, base: base, repeats: plan.retries, budget: budget, in: database)
            return (repeated, [])
        case .xcodebuild:
            return (nil, [])
        }
    }

    /// What runs `tests` for `verify`, each run the next attempt of `run`: `swift test` a process
    /// a run, xcodebuild and a module every run in one process.
    /// - Parameters:
    ///   - tests: the tests verified.
    ///   - runBefore: tests run before them each time: the neighbours their failures followed.
    ///   - runBeside: tests run beside them each time: those that ran with a test that fails only
    ///     beside others (one process runs them all, in the runner's order, for xcodebuild and a module).
    ///   - run: the verification run.
    ///   - metadata: the run's metadata, for what its outputs are stored with.
    ///   - environment: the command's, from ``environment(recorded:module:)``.
    ///   - databasePath: the ledger file the tests journal beside.
    ///   - folder: where the runs write their outputs.
    /// - Returns: the runner, ready to ``VerifyingRunner/verify(runs:deadline:in:)``.
    package func verifyingRunner(
        _ tests: [String], runBefore: [String], runBeside: [String], run: String, metadata: RunMetadata,
        environment: [String: String], databasePath: String, folder: URL
    ) -> any VerifyingRunner {
        switch self {
        case .swiftTest(let invocation):
            SwiftTestVerification(
                invocation: invocation, tests: tests, runBefore: runBefore, runBeside: runBeside,
                processes: SwiftTestProcesses(
                    run: run, metadata: metadata, environment: environment, databasePath: databasePath),
                outputFolder: folder)
        case .xcodebuild(let invocation):
            XcodebuildVerification(
                invocation: invocation, tests: tests, runBefore: runBefore + runBeside,
                processes: XcodebuildProcesses(
                    run: run, metadata: metadata, environment: environment, databasePath: databasePath))
        case .module(let command):
            ModuleVerification(
                command: command, tests: tests, runBefore: runBefore + runBeside, run: run, environment: environment,
                folder: folder, databasePath: databasePath)
        }
    }
}
