import Foundation
import LedgerCore

/// What a GitHub Actions job says of itself in its environment: the repository, the API, the
/// token, and the pull request its event names.
package struct GitHubJob {
    package var environment: [String: String]

    package init(environment: [String: String]) { self.environment = environment }

    /// The branch a pull request merges into (`GITHUB_BASE_REF`), else `main`.
    package var baseBranch: String { value("GITHUB_BASE_REF") ?? "main" }

    /// Whether this runs in a GitHub Actions job.
    package var isActions: Bool { environment["GITHUB_ACTIONS"] == "true" }

    package func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }

    /// The job's event payload (`GITHUB_EVENT_PATH`), when it can be read.
    package var event: [String: Any]? {
        guard let path = value("GITHUB_EVENT_PATH"), let data = FileManager.default.contents(atPath: path) else {
            return nil
        }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// The pull request the event is about: `pull_request.number`, else an issue comment's issue.
    package var pullRequest: Int? {
        guard let event else { return nil }
        if let pull = event["pull_request"] as? [String: Any] { return pull["number"] as? Int }
        if let issue = event["issue"] as? [String: Any], issue["pull_request"] != nil { return issue["number"] as? Int }
        return nil
    }

    /// The commit a check run belongs to: the pull request's head (`GITHUB_SHA` is a merge commit
    /// there), else `GITHUB_SHA`.
    package var headSHA: String? {
        ((event?["pull_request"] as? [String: Any])?["head"] as? [String: Any])?["sha"] as? String
            ?? value("GITHUB_SHA")
    }

    /// The API, when the job names its repository and has a token in `tokenVariable`.
    package func api(tokenVariable: String, budget: NetworkBudget? = nil) -> Result<GitHubAPI, CodeHostError> {
        guard let repository = value("GITHUB_REPOSITORY") else {
            return .failure(CodeHostError(message: "GITHUB_REPOSITORY is not set: run this in a GitHub Actions job"))
        }
        guard let token = value(tokenVariable) else {
            return .failure(
                CodeHostError(
                    message: "\(tokenVariable) is not set: give the step `env: \(tokenVariable): "
                        + "${{ secrets.GITHUB_TOKEN }}`"))
        }
        return .success(
            GitHubAPI(
                root: value("GITHUB_API_URL") ?? "https://api.github.com", repository: repository, token: token,
                budget: budget))
    }

    /// A recorded file's path from the repository's root, where the checkout has that file: from
    /// the workspace, else git's top level, else the working directory.
    package var place: (String) -> String? {
        let root =
            value("GITHUB_WORKSPACE") ?? GitInfo.topLevel(in: FileManager.default.currentDirectoryPath)
            ?? FileManager.default.currentDirectoryPath
        let paths = RepositoryPaths(root: root, topLevel: CheckoutFolder.topLevel(of: root))
        return { file in paths.existing(file) { FileManager.default.fileExists(atPath: root + "/" + $0) } }
    }

    /// The job's own page, for a check run's details.
    package var runAddress: String? {
        guard let server = value("GITHUB_SERVER_URL"), let repository = value("GITHUB_REPOSITORY"),
            let run = value("GITHUB_RUN_ID")
        else { return nil }
        return "\(server)/\(repository)/actions/runs/\(run)"
    }
}
