import Foundation
import LedgerCore
import LedgerRecording
import LedgerStore

extension TestLedgerCommand.Verify {
    /// Keeps each fix found on a known revision, to be followed until that revision runs on the
    /// default branch (`fix-pending`), then for `.testledger.yml`'s `fixLanding.runs` clean runs
    /// there.
    func recordFixes(_ reports: [VerificationReport], run: String, metadata: RunMetadata, config: ProjectConfiguration)
        throws
    {
        let fixed = reports.filter { $0.verdict == .fixed }
        guard !fixed.isEmpty else { return }
        guard let revision = metadata.revision else {
            note("no revision is known here, so the fix is not followed onto the default branch: pass --revision")
            return
        }
        let database = try store.open()
        let now = Date().timeIntervalSince1970
        for report in fixed {
            let bound = VerificationPlan.remainingRateBound(runs: report.passed, confidence: report.confidence)
            let evidence = RecordedFix.Evidence(
                verificationRun: run, runs: report.runs, failureRateBefore: report.failureRate,
                remainingRateBelow: report.remainingRateBelow ?? bound, confidence: report.confidence)
            let fix = try database.recordFix(
                RecordedFix(
                    test: report.test, project: metadata.project, revision: revision, branch: metadata.branch, at: now,
                    evidence: evidence, runsToRelease: config.fixLanding.runs))
            note(
                "\(report.test): fix-pending until \(revision.prefix(8)) runs on the default branch, then "
                    + "\(fix.runsToRelease) clean runs there")
        }
    }
}
