import Foundation
import LedgerCore

/// A run's report where a GitHub user looks: annotations on the failing lines, one pull-request
/// comment kept current, a check run. Nothing here fails the job: what could not be posted is
/// said on standard error.
package struct GitHubFeedback {
    package var job: GitHubJob
    /// The pull request to comment on; the event's when `nil`.
    package var pullRequest: Int?
    /// The variable holding the token.
    package var tokenVariable = "GITHUB_TOKEN"
    package var ifFailed = false
    package var dashboard: URL?
    /// Whether the job failed whatever the report says: `record`'s command failed (a build error,
    /// a crash before any result).
    package var jobFailed = false
    /// The command's time on the network; what could not be posted is noted in it.
    package var budget: NetworkBudget?

    package init(
        job: GitHubJob, pullRequest: Int? = nil, tokenVariable: String = "GITHUB_TOKEN", ifFailed: Bool = false,
        dashboard: URL? = nil, jobFailed: Bool = false
    ) {
        self.job = job
        self.pullRequest = pullRequest
        self.tokenVariable = tokenVariable
        self.ifFailed = ifFailed
        self.dashboard = dashboard
        self.jobFailed = jobFailed
    }

    /// The failures as workflow commands, and a line counting those not marked on a line.
    package static func annotations(_ report: RunReport, job: GitHubJob) -> (lines: [String], untold: String?) {
        let (placed, unplaced) = FailureAnnotation.of(report, place: job.place)
        let (commands, untold) = WorkflowCommands.lines(placed, unplaced: unplaced)
        return (commands + (untold.map { ["testledger: \($0)"] } ?? []), untold)
    }

    /// Creates or updates the pull request's comment.
    package func comment(_ report: RunReport) {
        guard let number = pullRequest ?? job.pullRequest else {
            say("no pull request (the event names none; give --pr N): no comment")
            return
        }
        switch job.api(tokenVariable: tokenVariable, budget: budget) {
        case .failure(let error): say("no comment: \(error.message)")
        case .success(let api):
            do throws(CodeHostError) {
                say(
                    try ReviewComments.keep(
                        report, in: api.pullRequest(number), ifFailed: ifFailed, jobFailed: jobFailed,
                        dashboard: dashboard))
            } catch {
                unreached("no comment on pull request #\(number): \(error.explained(host: "GitHub"))")
            }
        }
    }

    /// Creates a completed check run named "TestLedger" for the commit under test.
    package func checkRun(_ report: RunReport) {
        guard let sha = job.headSHA ?? report.revision else {
            say("no check run: GITHUB_SHA is not set and the run has no revision")
            return
        }
        switch job.api(tokenVariable: tokenVariable, budget: budget) {
        case .failure(let error): say("no check run: \(error.message)")
        case .success(let api):
            let (placed, unplaced) = FailureAnnotation.of(report, place: job.place)
            let output = CheckRunOutput(
                report, annotations: placed, unplaced: unplaced, jobFailed: jobFailed, dashboard: dashboard)
            do throws(CodeHostError) {
                let id = try api.createCheckRun(output, headSHA: sha, detailsURL: job.runAddress)
                say(
                    "check run \(id) (\(CheckRunOutput.name), \(output.conclusion)) with "
                        + "\(output.batches.joined().count) annotation(s) on \(sha.prefix(12))")
            } catch {
                unreached("no check run: \(error.explained(host: "GitHub"))")
            }
        }
    }

    /// Says what could not be posted, and notes it in the budget for `--strict`.
    private func unreached(_ line: String) {
        budget?.unreached(line)
        say(line)
    }

    private func say(_ line: String) {
        fflush(nil)  // what print buffered comes first in the log
        FileHandle.standardError.write(Data("testledger: \(line)\n".utf8))
    }
}
