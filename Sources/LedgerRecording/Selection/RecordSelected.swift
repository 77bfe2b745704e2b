import Foundation
import LedgerCore
import LedgerDelivery
import LedgerStore

/// What `record --select` decided before the command: the selection and every test the runner lists.
package struct RecordSelected {
    let plan: SelectionPlan
    let listed: [String]
    /// `--observe`: everything runs, and what selection would skip is stored.
    let observing: Bool
    /// Whose arguments select the tests.
    let runner: TestRunner

    /// The arguments that select the tests: none when observing.
    var arguments: [String] { observing ? [] : plan.selection.arguments(for: runner) }

    /// Whether the command need not run at all.
    var runsNothing: Bool { !observing && plan.selection.runsNothing }

    /// What the run stores of its selection, once its tests have run: the tests left out and each
    /// test target's hash, tests and passes.
    func store(run: String, in database: LedgerDatabase) throws {
        let events = plan.selection.events(
            at: plan.at, listed: listed, passed: Set(try database.passedTests(run: run)),
            failed: Set(try database.failingTests(run: run)), observing: observing)
        try database.ingest { sink in
            for event in events { try sink.consume(LedgerRecord(run: run, event: event)) }
        }
    }
}

extension RecordSession {
    /// `--select`: the tests the change can break, for `swift test` and a package's `xcodebuild`
    /// scheme; `nil`, with the reason said, when every test runs because selection cannot be made.
    /// Selection never stops the tests: what it cannot read makes every test run.
    /// - Throws: ``RecordUsageError`` when the command chooses its tests itself.
    func selectTests(_ command: TestCommand, database: LedgerDatabase?, network: NetworkBudget, folder: URL) throws
        -> RecordSelected?
    {
        guard options.select else { return nil }
        if command.selectsTests {
            let option = command.runner == .xcodebuild ? "xcodebuild's -only-testing" : "swift test's --filter"
            throw RecordUsageError("--select chooses the tests itself: leave out \(option)")
        }
        if let reason = command.xcodebuild?.notAPackageScheme {
            printError("testledger: select: every test runs: \(reason)")
            return nil
        }
        if command.runner == .module {
            printError("testledger: select: every spec runs: --select reads a SwiftPM package's graph, not a module's")
            return nil
        }
        do {
            let plan = try SelectionPlan.planned(
                packagePath: command.packagePath, base: options.baseBranch, command: command, metadata: metadata,
                config: config, history: RecordHistory(database: database, budget: network), ledger: ledgerFile)
            guard let listed = try command.allTests(writingInto: folder), !listed.isEmpty else {
                printError("testledger: select: the runner listed no tests; every test runs")
                return nil
            }
            // A test of a module the graph does not know (an app's, a project's) would be neither run
            // nor stored.
            let known = Set(plan.selection.targets.map(\.module))
            if let stranger = listed.map(TestSelection.module(of:)).first(where: { !known.contains($0) }) {
                printError(
                    "testledger: select: every test runs: the runner lists tests of \(stranger), no test target of the package"
                )
                return nil
            }
            printError(
                options.observe
                    ? plan.announcement.replacingOccurrences(of: "select:", with: "select (observing):")
                    : plan.announcement)
            return RecordSelected(plan: plan, listed: listed, observing: options.observe, runner: command.runner)
        } catch {
            printError("testledger: select: \(error); every test runs")
            return nil
        }
    }
}
