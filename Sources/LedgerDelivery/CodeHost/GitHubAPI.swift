import Foundation
import LedgerCore

/// GitHub's REST API for one repository, as a workflow's job reaches it: `GITHUB_API_URL`
/// (GitHub Enterprise too), `GITHUB_REPOSITORY` and a token.
package struct GitHubAPI {
    /// The API's root, `https://api.github.com` unless `GITHUB_API_URL` says otherwise.
    package var root: String
    /// `owner/name`.
    package var repository: String
    package var request: CodeHostRequest

    package init(root: String, repository: String, token: String, budget: NetworkBudget? = nil) {
        self.root = root.hasSuffix("/") ? String(root.dropLast()) : root
        self.repository = repository
        request = CodeHostRequest(headers: [
            "Authorization": "Bearer \(token)", "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28", "User-Agent": "testledger/\(TestLedgerVersion.current)",
        ])
        request.budget = budget
    }

    package var repositoryAddress: String { "\(root)/repos/\(repository)" }

    /// A pull request's conversation.
    package func pullRequest(_ number: Int) -> some CommentThread { PullRequestComments(api: self, number: number) }

    /// Creates a check run, completed, with the first batch of annotations; each later batch goes
    /// in an update, as the API takes at most 50 per request.
    /// - Returns: the check run's id.
    @discardableResult
    package func createCheckRun(_ output: CheckRunOutput, headSHA: String, detailsURL: String?) throws(CodeHostError)
        -> Int
    {
        func fields(_ batch: [FailureAnnotation]) -> [String: Any] {
            [
                "title": output.title, "summary": output.summary,
                "annotations": batch.map { annotation -> [String: Any] in
                    [
                        "path": annotation.path, "start_line": annotation.line ?? 1, "end_line": annotation.line ?? 1,
                        "annotation_level": annotation.level.checkRunLevel, "title": annotation.title,
                        "message": annotation.message,
                    ]
                },
            ]
        }
        var body: [String: Any] = [
            "name": CheckRunOutput.name, "head_sha": headSHA, "status": "completed",
            "conclusion": output.conclusion, "output": fields(output.batches.first ?? []),
        ]
        if let detailsURL { body["details_url"] = detailsURL }
        let created = try request.send("POST", "\(repositoryAddress)/check-runs", body: body)
        guard let id = (created.json as? [String: Any])?["id"] as? Int else {
            throw CodeHostError(status: 201, message: "the check run's answer has no id")
        }
        for (index, batch) in output.batches.enumerated().dropFirst() {
            do {
                _ = try request.send("PATCH", "\(repositoryAddress)/check-runs/\(id)", body: ["output": fields(batch)])
            } catch {
                let sent = index * CheckRunOutput.batch
                throw CodeHostError(
                    status: error.status,
                    message: "check run \(id) was created with \(sent) annotation(s); the rest were not added: "
                        + error.message)
            }
        }
        return id
    }
}

/// A pull request's comments: GitHub keeps them as its issue's.
private struct PullRequestComments: CommentThread {
    let api: GitHubAPI
    let number: Int

    var name: String { "pull request #\(number) of \(api.repository)" }
    var host: String { "GitHub" }

    func comments() throws(CodeHostError) -> [(id: String, body: String)] {
        try api.request.comments(pagedAt: "\(api.repositoryAddress)/issues/\(number)/comments?per_page=100&page=")
    }

    func create(_ body: String) throws(CodeHostError) {
        _ = try api.request.send("POST", "\(api.repositoryAddress)/issues/\(number)/comments", body: ["body": body])
    }

    func edit(id: String, _ body: String) throws(CodeHostError) {
        _ = try api.request.send("PATCH", "\(api.repositoryAddress)/issues/comments/\(id)", body: ["body": body])
    }
}
