import Foundation
import Hummingbird
import LedgerCore
import LedgerStore

/// The fixes `verify` proved, over the API, for the server to follow onto the default branch by
/// its uploads (as `record` follows a local ledger's).
///
/// `GET /api/v1/projects/{project}/fixes` (each test's fixes, newest first, with any token of the
/// project: a CI job's `record` reads which pending fixes its revision carries) and `POST …/fixes` with a manage token (a fix releases its test from the quarantine once
/// it held) and `{"test": "…", "revision": "…", "branch": "…", "evidence": {"verificationRun":
/// "…", "runs": 59, "failureRateBefore": 0.05, "remainingRateBelow": 0.05, "confidence": 0.95},
/// "runsToRelease": 20}` (`branch` and `runsToRelease` optional), answered with the fix kept.
struct FixRoutes {
    let database: any ResultStore
    let access: Access

    /// The body of a `POST`: a fix as `verify` found it.
    struct Verified: Decodable {
        var test: String
        var revision: String
        var branch: String?
        var evidence: RecordedFix.Evidence
        var runsToRelease: Int?

        /// Why the fix cannot be kept, or `nil`.
        var problem: String? {
            if test.isEmpty || revision.isEmpty { return "\"test\" and \"revision\" must not be empty" }
            if evidence.runs < 1 || runsToRelease.map({ $0 < 1 }) == true {
                return "\"runs\" and \"runsToRelease\" are counts, 1 or more"
            }
            let rates = [evidence.failureRateBefore, evidence.remainingRateBelow]
            if !rates.allSatisfy({ (0...1).contains($0) }) { return "failure rates are from 0 to 1" }
            if !VerificationPlan.isValid(confidence: evidence.confidence) {
                return "\"confidence\" is from 0.5 to 0.9999"
            }
            return nil
        }
    }

    static let expected =
        #"{"test", "revision", "evidence": {"verificationRun", "runs", "failureRateBefore", "#
        + #""remainingRateBelow", "confidence"}} and optionally "branch", "runsToRelease""#

    func add(to router: Router<LedgerRequestContext>) {
        let database = self.database
        let access = self.access
        let project = router.group("/api/v1/projects/:project")
        project.get("fixes") { _, context in
            let name = try access.ciReadable(context)
            return try JSONResponse.make(try await Blocking.run { try database.fixes(project: name) })
        }
        project.post("fixes") { request, context in
            let name = try access.quarantineManageable(context)
            let verified = try await request.decodeJSON(Verified.self, upTo: 64 * 1024, expected: Self.expected)
            if let problem = verified.problem { throw HTTPError(.badRequest, message: "request body: \(problem)") }
            let fix = RecordedFix(
                test: verified.test, project: name, revision: verified.revision, branch: verified.branch,
                at: Date().timeIntervalSince1970, evidence: verified.evidence, runsToRelease: verified.runsToRelease)
            return try JSONResponse.make(try await Blocking.run { try database.recordFix(fix) }, status: .created)
        }
    }
}
