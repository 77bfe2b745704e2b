import ArgumentParser
import Foundation
import LedgerCore
import LedgerDelivery
import LedgerStore

extension TestLedgerCommand {
    /// `testledger github …`: a run's report where a GitHub user looks.
    struct GitHub: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "github", abstract: "Post a run's report on its GitHub pull request.",
            subcommands: [Comment.self])

        /// `testledger github comment [RUN]`: one comment per pull request, kept current.
        struct Comment: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "comment",
                abstract: "Keep one comment on the pull request with what the run's failures mean.",
                discussion: """
                    Creates the comment the first time and edits it in place afterwards (found by a hidden \
                    marker per project and configuration). Reads GITHUB_TOKEN (or --token-env), \
                    GITHUB_API_URL, GITHUB_REPOSITORY and the pull request from GITHUB_EVENT_PATH. A token \
                    that may not comment (a fork's pull request), or no answer, is said and exits 0.
                    """)

            @OptionGroup var comment: CommentOptions
            @Option(help: "The base branch failures are judged against (default: $GITHUB_BASE_REF, else main).")
            var base: String?
            @Option(help: "The pull request's number (default: the one GITHUB_EVENT_PATH names).")
            var pr: Int?
            @Option(help: "The environment variable holding the token.")
            var tokenEnv = "GITHUB_TOKEN"
            @Flag(help: "Also create a check run named TestLedger, with the failures as annotations.")
            var checkRun = false

            func run() throws {
                let job = GitHubJob(environment: ProcessInfo.processInfo.environment)
                let report = try comment.report(base: base ?? job.baseBranch)
                let feedback = GitHubFeedback(
                    job: job, pullRequest: pr, tokenVariable: tokenEnv, ifFailed: comment.ifFailed,
                    dashboard: LedgerEnvironment().serverURL)
                feedback.comment(report)
                if checkRun { feedback.checkRun(report) }
            }
        }
    }

    /// `testledger gitlab note [RUN]`: the same comment on a GitLab merge request.
    struct GitLab: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "gitlab", abstract: "Post a run's report on its GitLab merge request.",
            subcommands: [Note.self])

        struct Note: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "note",
                abstract: "Keep one note on the merge request with what the run's failures mean.",
                discussion: """
                    As `github comment`, through CI_API_V4_URL, CI_PROJECT_ID and CI_MERGE_REQUEST_IID, with a \
                    token that may write notes (a project access token in GITLAB_TOKEN, or --token-env). A \
                    refusal, or no answer, is said and exits 0.
                    """)

            @OptionGroup var comment: CommentOptions
            @Option(
                help: ArgumentHelp(
                    "The base branch failures are judged against (default: $CI_MERGE_REQUEST_TARGET_BRANCH_NAME, "
                        + "else main)."))
            var base: String?
            @Option(help: "The merge request's iid (default: $CI_MERGE_REQUEST_IID).")
            var mr: Int?
            @Option(help: "The environment variable holding the token.")
            var tokenEnv = "GITLAB_TOKEN"

            func run() throws {
                let environment = ProcessInfo.processInfo.environment
                func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
                let report = try comment.report(base: base ?? value("CI_MERGE_REQUEST_TARGET_BRANCH_NAME") ?? "main")
                func say(_ line: String) { FileHandle.standardError.write(Data("testledger: \(line)\n".utf8)) }
                guard let root = value("CI_API_V4_URL"), let id = value("CI_PROJECT_ID") else {
                    return say("no note: CI_API_V4_URL and CI_PROJECT_ID are not set: run this in a GitLab CI job")
                }
                guard let iid = mr ?? value("CI_MERGE_REQUEST_IID").flatMap({ Int($0) }) else {
                    return say("no merge request (CI_MERGE_REQUEST_IID is not set; give --mr N): no note")
                }
                guard let token = value(tokenEnv) else {
                    return say("no note: \(tokenEnv) is not set: give the job a token that may write notes")
                }
                let notes = MergeRequestNotes(root: root, project: id, mergeRequest: iid, token: token)
                do throws(CodeHostError) {
                    say(
                        try ReviewComments.keep(
                            report, in: notes, ifFailed: comment.ifFailed, dashboard: LedgerEnvironment().serverURL))
                } catch {
                    say("no note on merge request !\(iid): \(error.explained(host: "GitLab"))")
                }
            }
        }
    }
}
