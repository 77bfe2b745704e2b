import Foundation
import LedgerCore
import LedgerStore

/// `select` and `record --select`: the checkout's change and graph, judged against the ledger's
/// vouching runs and the tests that must run whatever changed.
package struct SelectionPlan {
    package var selection: TestSelection
    package let checkout: SelectionCheckout
    package let base: String
    /// When the selection was made.
    package let at: Double

    /// - Parameters:
    ///   - checkout: what the checkout says.
    ///   - base: the base branch.
    ///   - config: `.testledger.yml`'s `select`.
    ///   - history: reads the ledger, given the hashes.
    /// - Throws: what reading the ledger throws.
    package init(
        checkout: SelectionCheckout, base: String, config: ProjectConfiguration.Selection,
        history: ([String: String]) throws -> SelectionHistory
    ) throws {
        self.checkout = checkout
        self.base = base
        at = Date().timeIntervalSince1970
        let read = try history(checkout.hashes)
        selection = TestSelection(
            graph: checkout.graph, changedFiles: checkout.changedFiles, everything: checkout.everything,
            ignore: config.ignorePatterns, hashes: checkout.hashes, vouches: read.vouches)
        var candidates: [String] = []
        for target in selection.targets where !target.runs {
            guard let run = target.vouchedBy?.run else { continue }
            candidates += (read.tests[run] ?? []).filter { TestSelection.module(of: $0) == target.module }
        }
        selection.keep(
            TestSelection.mustRun(
                candidates, known: read.known.map(Set.init), base: base, troubled: Set(read.troubled),
                unskippable: config.unskippable))
    }

    /// What selection says before the tests run, one line.
    package var announcement: String {
        let targets = selection.targets
        if let everything = selection.everything { return "testledger: select: every test runs: \(everything)" }
        let skipped = targets.filter { !$0.runs }
        guard !skipped.isEmpty else {
            let line = "testledger: select: every test target runs (\(targets.count) of \(targets.count))"
            let unvouched = targets.filter { $0.reason == TestSelection.Target.unvouched }
            guard !unvouched.isEmpty else { return line }
            return line + ": \(unvouched.count) did not change, but no complete, passing run of \(base) or this "
                + "branch stored their hash: `testledger record -- swift test` of every test (on \(base) too) "
                + "stores them, as `record --select` does, and vouches for the targets it passes"
        }
        let kept = selection.alwaysRun.isEmpty ? "" : "; \(selection.alwaysRun.count) of their tests run all the same"
        return "testledger: select: \(targets.count - skipped.count) of \(targets.count) test targets run; "
            + skipped.map(\.target).joined(separator: ", ") + " not affected" + kept
    }
}

extension SelectionPlan {
    /// The selection for the package at `packagePath`, tested by `command` (whose
    /// ``TestCommand/selectionSignature`` the hashes cover), judged against the ledger `history`
    /// reads (the team server's when there is one); the `ledger` file's own files are no change.
    /// - Throws: ``SelectionCheckout/Problem`` when the checkout cannot be read; what reading the
    ///   ledger throws.
    package static func planned(
        packagePath: String, base: String, command: TestCommand, metadata: RunMetadata,
        config: ProjectConfiguration, history: RecordHistory, ledger: String?
    ) throws -> SelectionPlan {
        let configuration = metadata.configuration ?? ""
        let checkout = try SelectionCheckout.read(
            packagePath: packagePath, base: base, configuration: command.hashedConfiguration(configuration),
            ignore: config.select.ignorePatterns, uses: config.select.uses, ledger: ledger)
        return try SelectionPlan(checkout: checkout, base: base, config: config.select) { hashes in
            try history.selectionHistory(
                project: metadata.project, hashes: hashes, base: base, branch: metadata.branch,
                configuration: configuration, window: config.reportWindow, thresholds: config.flaky)
        }
    }
}
