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

    /// What the ledger tells selection.
    package struct History {
        /// The runs that vouch for each target's hash.
        package var vouches: [String: Vouch]
        /// The tests each vouching run stored, by run id.
        package var testsOfRun: (String) throws -> [String]
        /// The tests the base branch ran; `nil` when not known.
        package var known: Set<String>?
        /// The tests that failed or were flaky within the window.
        package var troubled: Set<String>

        package init(
            vouches: [String: Vouch], testsOfRun: @escaping (String) throws -> [String], known: Set<String>?,
            troubled: Set<String>
        ) {
            (self.vouches, self.testsOfRun, self.known, self.troubled) = (vouches, testsOfRun, known, troubled)
        }
    }

    /// - Parameters:
    ///   - checkout: what the checkout says.
    ///   - base: the base branch.
    ///   - config: `.testledger.yml`'s `select`.
    ///   - history: reads the ledger, given the hashes.
    /// - Throws: what reading the ledger throws.
    package init(
        checkout: SelectionCheckout, base: String, config: ProjectConfiguration.Selection,
        history: ([String: String]) throws -> History
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
            candidates += try read.testsOfRun(run).filter { TestSelection.module(of: $0) == target.module }
        }
        selection.keep(
            TestSelection.mustRun(
                candidates, known: read.known, base: base, troubled: read.troubled, unskippable: config.unskippable))
    }

    /// What selection says before the tests run, one line.
    package var announcement: String {
        let targets = selection.targets
        if let everything = selection.everything { return "testledger: select: every test runs: \(everything)" }
        let skipped = targets.filter { !$0.runs }
        guard !skipped.isEmpty else {
            return "testledger: select: every test target runs (\(targets.count) of \(targets.count))"
        }
        let kept = selection.alwaysRun.isEmpty ? "" : "; \(selection.alwaysRun.count) of their tests run all the same"
        return "testledger: select: \(targets.count - skipped.count) of \(targets.count) test targets run; "
            + skipped.map(\.target).joined(separator: ", ") + " not affected" + kept
    }
}

extension SelectionPlan.History {
    /// What the ledger (`store`) tells selection of `project`: vouching runs of the base and of
    /// `branch`, the tests the base ran, and the tests that failed or were flaky within `window` runs.
    package static func read(
        _ store: any ResultStore, hashes: [String: String], project: String, base: String, branch: String?,
        configuration: String, window: Int, thresholds: FlakyThresholds
    ) throws -> Self {
        let now = Date().timeIntervalSince1970
        let vouches = try store.vouches(
            project: project, hashes: hashes, branches: Array(Set([base] + (branch.map { [$0] } ?? []))).sorted())
        guard !vouches.isEmpty else { return Self(vouches: [:], testsOfRun: { _ in [] }, known: nil, troubled: []) }
        let known = try store.knownTests(project: project, configuration: configuration, base: base, at: now)
        let flaky = try store.flakyReport(project: project, runs: window, since: nil, thresholds: thresholds, now: now)
        var troubled = Set(flaky.flaky.map(\.test) + flaky.broken.map(\.test))
        for run in try store.windowRuns(project: project, count: window, since: nil) {
            troubled.formUnion(try store.failingTests(run: run.id))
        }
        return Self(
            vouches: vouches, testsOfRun: { try store.testsStored(run: $0) },
            known: known.comparedWith.runs > 0 ? known.tests : nil, troubled: troubled)
    }
}

extension SelectionPlan {
    /// The selection for the package at `packagePath`, judged against `store` (nothing is vouched
    /// for without one).
    /// - Throws: ``SelectionCheckout/Problem`` when the checkout cannot be read; what reading the
    ///   ledger throws.
    package static func planned(
        packagePath: String, base: String, buildConfiguration: String, metadata: RunMetadata,
        config: ProjectConfiguration, store: (any ResultStore)?
    ) throws -> SelectionPlan {
        let configuration = metadata.configuration ?? ""
        let checkout = try SelectionCheckout.read(
            packagePath: packagePath, base: base, configuration: configuration + "\u{0}" + buildConfiguration)
        return try SelectionPlan(checkout: checkout, base: base, config: config.select) { hashes in
            guard let store else { return History(vouches: [:], testsOfRun: { _ in [] }, known: nil, troubled: []) }
            return try History.read(
                store, hashes: hashes, project: metadata.project, base: base, branch: metadata.branch,
                configuration: configuration, window: config.reportWindow, thresholds: config.flaky)
        }
    }
}
