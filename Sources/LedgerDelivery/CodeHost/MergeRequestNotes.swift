import Foundation
import LedgerCore

/// A merge request's notes through GitLab's REST API, as a pipeline's job reaches it:
/// `CI_API_V4_URL`, `CI_PROJECT_ID`, `CI_MERGE_REQUEST_IID` and a token that may write notes.
package struct MergeRequestNotes: CommentThread {
    /// The API's root, `$CI_API_V4_URL`.
    package var root: String
    package var project: String
    package var mergeRequest: Int
    package var request: CodeHostRequest

    package init(root: String, project: String, mergeRequest: Int, token: String) {
        self.root = root.hasSuffix("/") ? String(root.dropLast()) : root
        self.project = project
        self.mergeRequest = mergeRequest
        request = CodeHostRequest(headers: [
            "PRIVATE-TOKEN": token, "User-Agent": "testledger/\(TestLedgerVersion.current)",
        ])
    }

    package var name: String { "merge request !\(mergeRequest) of project \(project)" }
    package var host: String { "GitLab" }

    private var notes: String {
        let id = project.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? project
        return "\(root)/projects/\(id)/merge_requests/\(mergeRequest)/notes"
    }

    package func comments() throws(CodeHostError) -> [(id: String, body: String)] {
        try request.comments(pagedAt: "\(notes)?sort=asc&order_by=created_at&per_page=100&page=")
    }

    package func create(_ body: String) throws(CodeHostError) {
        _ = try request.send("POST", notes, body: ["body": body])
    }

    package func edit(id: String, _ body: String) throws(CodeHostError) {
        _ = try request.send("PUT", "\(notes)/\(id)", body: ["body": body])
    }
}
