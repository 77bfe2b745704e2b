import Foundation
import LedgerCore
import LedgerDelivery
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
            send(fix)
        }
    }

    /// Sends `fix` to the team's server when `TESTLEDGER_URL` and `TESTLEDGER_TOKEN` name one (a
    /// manage token), for its uploads to follow; a server that refuses or is down is said, and the
    /// verdict stands.
    func send(_ fix: RecordedFix, environment: LedgerEnvironment = LedgerEnvironment()) {
        guard let server = environment.serverURL, let token = environment.token, !token.isEmpty else { return }
        let body = FixUpload(
            test: fix.test, revision: fix.revision, branch: fix.branch, evidence: fix.evidence,
            runsToRelease: fix.runsToRelease)
        guard let data = try? JSONEncoder().encode(body) else { return }
        switch ServerClient(server: server, token: token).send("POST", project: fix.project, path: "fixes", body: data)
        {
        case .success:
            note("\(fix.test): the fix was sent to \(server), which follows it through its uploads")
        case .failure(let error):
            printError(
                "testledger: \(fix.test): the fix was not sent to \(server) (\(error.message)): it is followed only "
                    + "in this ledger; a manage token sends it (testledger token create --project \(fix.project) "
                    + "--scope manage)")
        }
    }

    /// `POST /api/v1/projects/{project}/fixes`'s body.
    private struct FixUpload: Encodable {
        var test: String
        var revision: String
        var branch: String?
        var evidence: RecordedFix.Evidence
        var runsToRelease: Int
    }
}
