import Foundation
import LedgerCore
import LedgerStore

/// The few lines `record` prints after the command: counts, layers, retries, new flaky tests.
package enum RecordSummary {
    package static func flakyTests(_ database: any ResultStore, project: String, config: ProjectConfiguration) throws
        -> [FlakyReport.FlakyTest]
    {
        try database.flakyReport(
            project: project, runs: config.reportWindow, since: nil, thresholds: config.flaky,
            now: Date().timeIntervalSince1970
        ).flaky
    }

    /// - Parameters:
    ///   - database: the ledger the run is stored in.
    ///   - run: the run recorded.
    ///   - project: the run's project.
    ///   - config: the project's configuration: its layers, report window and flaky thresholds.
    ///   - newFlaky: the tests flaky after the run and not before it.
    ///   - mutedFailures: the muted (quarantined) tests that failed.
    ///   - forgiven: whether the muted failures were the only ones, so the build passes.
    ///   - retries: what `--retries` did, when it ran tests again.
    ///   - repeats: what `--repeat-new` found, when it repeated new tests.
    ///   - failedForRetries: whether `--fail-on-retried` fails the command for tests that passed on a retry.
    /// - Returns: the lines, joined with newlines; one line when no results were recorded for `run`.
    /// - Throws: what reading the ledger throws.
    package static func text(
        _ database: any ResultStore, run: String, project: String, config: ProjectConfiguration,
        newFlaky: [String], mutedFailures: [String] = [], forgiven: Bool = false,
        retries: RetryOutcome? = nil, repeats: NewTestRepeats.Outcome? = nil, failedForRetries: Bool = false
    ) throws -> String {
        guard let listing = try database.runs(project: project, limit: 50).first(where: { $0.id == run }) else {
            return "testledger: no results were recorded for run \(run)"
        }
        let pyramid = try database.pyramidReport(
            project: project, run: run, since: nil, classifier: LayerClassifier(rules: config.layers))
        let layers = pyramid.layers.map { "\($0.layer.rawValue) \($0.tests)" }.joined(separator: ", ")
        var lines = [
            "testledger: run \(run): "
                + (listing.reported.map { "\($0.tests) tests, \(listing.tests) named" } ?? "\(listing.tests) tests")
                + " — \(listing.passed) passed, "
                + "\(listing.failed) failed, \(listing.skipped) skipped"
                + (listing.crashed > 0 ? ", \(listing.crashed) crashed" : "")
                + (listing.flaky > 0 ? ", \(listing.flaky) passed on retry" : ""),
            "testledger: layers: \(layers) (\(pyramid.verdict.title))",
        ]
        lines += retries?.lines ?? []
        lines += repeats?.lines ?? []
        if failedForRetries {
            lines.append(
                "testledger: --fail-on-retried: \(listing.flaky) test(s) passed only on a retry: the command fails")
        }
        if !mutedFailures.isEmpty {
            lines.append(
                "testledger: muted (quarantined) failures: " + mutedFailures.joined(separator: ", ")
                    + (forgiven ? " — the only failures, so the build passes" : ""))
        }
        if !newFlaky.isEmpty {
            lines.append("testledger: newly flaky: " + newFlaky.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }
}
