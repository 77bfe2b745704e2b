import Foundation
import LedgerCore
import LedgerDelivery
import LedgerRecording
import LedgerStore

/// What `record --select` decided before the command: the selection and every test the runner lists.
struct RecordSelected {
    let plan: SelectionPlan
    let listed: [String]
    /// `--observe`: everything runs, and what selection would skip is stored.
    let observing: Bool

    /// The arguments that select the tests: none when observing.
    var arguments: [String] { observing ? [] : plan.selection.arguments(for: .swiftTest) }

    /// Whether the command need not run at all.
    var runsNothing: Bool { !observing && plan.selection.runsNothing }

    /// What the run stores of its selection, once its tests have run: the tests left out and each
    /// test target's hash, tests and passes.
    func store(run: String, in database: LedgerDatabase) throws {
        let passed = Set(try database.passedTests(run: run))
        let events = plan.selection.events(at: plan.at, listed: listed, passed: passed, observing: observing)
        try database.ingest { sink in
            for event in events { try sink.consume(LedgerRecord(run: run, event: event)) }
        }
    }
}

extension TestLedgerCommand.Record {
    /// `--select`: the tests the change can break, for `swift test`; `nil`, with the reason said,
    /// when every test runs because selection cannot be made. Selection never stops the tests:
    /// what it cannot read makes every test run.
    func selectTests(
        _ command: TestCommand, metadata: RunMetadata, config: ProjectConfiguration, database: LedgerDatabase?,
        network: NetworkBudget
    ) -> RecordSelected? {
        guard select else { return nil }
        guard case .swiftTest(let swiftTest) = command else {
            let runner = command.runner == .module ? "this command's specs" : "xcodebuild's tests"
            printError("testledger: select: \(runner) all run: --select reads a SwiftPM package's graph for swift test")
            return nil
        }
        do {
            let plan = try SelectionPlan.planned(
                packagePath: swiftTest.packagePath, base: baseBranch, buildConfiguration: swiftTest.buildConfiguration,
                metadata: metadata, config: config,
                history: RecordHistory(database: database, budget: network), ledger: store.filePath)
            guard let listed = swiftTest.allTests(), !listed.isEmpty else {
                printError("testledger: select: `swift test list` named no tests; every test runs")
                return nil
            }
            printError(observe ? plan.announcement.replacingOccurrences(of: "select:", with: "select (observing):")
                : plan.announcement)
            return RecordSelected(plan: plan, listed: listed, observing: observe)
        } catch {
            printError("testledger: select: \(error); every test runs")
            return nil
        }
    }
}
