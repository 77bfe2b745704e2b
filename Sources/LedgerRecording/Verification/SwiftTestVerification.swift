import Foundation
import LedgerCore
import LedgerStore

/// `testledger verify` for `swift test`: runs only the named tests, one process per run (the first
/// builds, the rest `--skip-build`), each run the next attempt of one run of kind `verification`,
/// until every test has failed, the runs are done or the deadline has passed.
package struct SwiftTestVerification: VerifyingRunner {
    /// The command as given, `swift test` with its package and build options.
    package var invocation: SwiftTestInvocation
    /// The tests verified, by stable id.
    package var tests: [String]
    /// Tests run before them each time (not judged): the neighbours their failures followed.
    package var runBefore: [String]
    /// Tests run beside them each time, side by side as the runner schedules them (not judged):
    /// those that ran with a test that fails only beside others.
    package var runBeside: [String]
    /// The verification run's processes: the library in the tests journals into the ledger.
    package var processes: SwiftTestProcesses
    /// Where each process writes its outputs, one folder per process.
    package var outputFolder: URL

    package init(
        invocation: SwiftTestInvocation, tests: [String], runBefore: [String] = [], runBeside: [String] = [],
        processes: SwiftTestProcesses, outputFolder: URL
    ) {
        (self.invocation, self.tests, self.runBefore, self.runBeside) = (invocation, tests, runBefore, runBeside)
        (self.processes, self.outputFolder) = (processes, outputFolder)
    }

    package typealias Outcome = VerificationOutcome

    /// Runs the tests up to `runs` times; a test that fails runs no more, and the runs stop when
    /// every test has failed.
    /// - Parameters:
    ///   - runs: the most runs.
    ///   - deadline: no run starts after this time (seconds since 1970), when given.
    ///   - database: the ledger the verification run is stored in.
    /// - Returns: each test's result in each run it ran in, and whether the runs stopped early.
    /// - Throws: a test that never ran (its id matches no test), or what storing throws.
    package func verify(runs: Int, deadline: Double?, in database: LedgerDatabase) throws -> Outcome {
        var outcome = Outcome()
        var running = tests
        for number in 1...max(1, runs) where !running.isEmpty {
            if let deadline, number > 1, Date().timeIntervalSince1970 >= deadline {
                outcome.stopped = true
                break
            }
            let line = "testledger: verify: run \(number) of \(runs): \(running.joined(separator: ", "))\n"
            FileHandle.standardOutput.write(Data(line.utf8))
            let process = try self.process(number, of: running, folder: outputFolder.appending(path: "run-\(number)"))
            let (status, problems) = try processes.run(
                process.invocation, arguments: process.arguments, tests: running, attemptOffset: number - 1,
                in: database)
            outcome.problems += problems
            for test in running {
                let attempts = (try? database.testDetail(test: test, run: processes.run))?.attempts ?? []
                guard attempts.count >= number else {
                    if number == 1, status < 128 {
                        throw RecordUsageError(
                            "\(test) did not run: check its id (testledger report flaky lists them)")
                    }
                    outcome.passes[test, default: []].append(false)
                    continue
                }
                outcome.passes[test, default: []].append(attempts[number - 1] == .ended(.passed))
            }
            if status >= 128 {
                outcome.stopped = true
                break
            }
            running.removeAll { outcome.passes[$0]?.last == false }
        }
        return outcome
    }

    /// The `number`th process: the first builds and runs the tests (and those run before them, in
    /// one serial process) as the command would, with an anchored `--filter` each; the rest run them
    /// again without building.
    private func process(_ number: Int, of tests: [String], folder: URL) throws -> (
        invocation: SwiftTestInvocation, arguments: [String]
    ) {
        let selected = runBefore + runBeside + tests
        if number > 1 {
            let again =
                runBeside.isEmpty
                ? invocation.retrying(selected, outputFolder: folder)
                : invocation.rerunning(selected, outputFolder: folder, serial: !runBefore.isEmpty)
            return (again, again.arguments)
        }
        guard let first = SwiftTestInvocation(invocation.original, outputFolder: folder) else {
            throw RecordUsageError("verify runs a swift test command")
        }
        let serial = runBefore.isEmpty || invocation.original.contains("--no-parallel") ? [] : ["--no-parallel"]
        return (first, first.arguments(adding: SkipArguments.swiftTestArguments(selecting: selected) + serial))
    }
}

extension SwiftTestVerification {
    /// `verify --isolate`: runs the test (the first of ``tests``) `runs` times alone, then `runs`
    /// times with `neighbour`, a process each, every run whatever the one before did.
    /// - Parameters:
    ///   - neighbour: the test run with it.
    ///   - serial: whether the two run one at a time (a preceding test) rather than side by side.
    ///   - runs: the runs of each half.
    ///   - database: the ledger the verification run is stored in.
    /// - Returns: the test's results alone and with the neighbour, and problems storing the outputs.
    /// - Throws: a test that never ran (its id matches no test), or what storing throws.
    package func isolate(_ neighbour: String, serial: Bool, runs: Int, in database: LedgerDatabase) throws
        -> IsolationOutcome
    {
        guard let test = tests.first else { return IsolationOutcome() }
        var results: [[Bool]] = [[], []]
        var problems: [String] = []
        for (half, selected) in [[test], [neighbour, test]].enumerated() {
            for number in 1...max(1, runs) {
                let attempt = half * runs + number
                let line =
                    "testledger: verify: \(half == 0 ? "alone" : "with \(neighbour)"), run \(number) of \(runs)\n"
                FileHandle.standardOutput.write(Data(line.utf8))
                let folder = outputFolder.appending(path: "run-\(attempt)")
                let again = invocation.rerunning(selected, outputFolder: folder, serial: serial)
                let process =
                    attempt == 1
                    ? try firstProcess(selecting: selected, serial: serial, folder: folder) : (again, again.arguments)
                let (status, stored) = try processes.run(
                    process.invocation, arguments: process.arguments, tests: selected, attemptOffset: attempt - 1,
                    in: database)
                problems += stored
                let attempts = (try? database.testDetail(test: test, run: processes.run))?.attempts ?? []
                if attempt == 1, attempts.isEmpty, status < 128 {
                    throw RecordUsageError("\(test) did not run: check its id (testledger report flaky lists them)")
                }
                results[half].append(attempts.count >= attempt && attempts[attempt - 1] == .ended(.passed))
            }
        }
        return IsolationOutcome(alone: results[0], beside: results[1], problems: problems)
    }

    /// The first process builds as the command would, and runs only `selected`.
    private func firstProcess(selecting selected: [String], serial: Bool, folder: URL) throws -> (
        invocation: SwiftTestInvocation, arguments: [String]
    ) {
        guard let first = SwiftTestInvocation(invocation.original, outputFolder: folder) else {
            throw RecordUsageError("verify runs a swift test command")
        }
        let order = serial && !invocation.original.contains("--no-parallel") ? ["--no-parallel"] : []
        return (first, first.arguments(adding: SkipArguments.swiftTestArguments(selecting: selected) + order))
    }
}
