import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why a code host did not take a comment or a check run: the job goes on all the same.
package struct CodeHostError: Error {
    /// The HTTP status, when the host answered.
    package var status: Int?
    package var message: String

    /// What to tell the job's log: the answer, and for a refusal the likely reason.
    package func explained(host: String) -> String {
        guard let status else { return "\(host) could not be reached: \(message)" }
        var why = ""
        if [401, 403, 404].contains(status) {
            why =
                host == "GitHub"
                ? " (a fork's pull request gets a read-only token; otherwise give the job's token "
                    + "`pull-requests: write` and `checks: write`)"
                : " (give the job a project access token with the `api` scope that may write notes)"
        }
        return "\(host) answered HTTP \(status): \(message)\(why)"
    }
}

/// A JSON request to a code host's REST API, with its authentication headers.
package struct CodeHostRequest {
    package var headers: [String: String]
    package var timeout: Double = 30
    /// The command's time on the network, shared with its other calls.
    package var budget: NetworkBudget?

    /// Sends `body` (a JSON object) with `method` and decodes the answer as JSON.
    /// - Throws: ``CodeHostError`` for no answer, a status outside 2xx, or an answer that is not JSON.
    package func send(_ method: String, _ address: String, body: [String: Any]? = nil) throws(CodeHostError) -> (
        json: Any, headers: [String: String]
    ) {
        guard let url = URL(string: address) else { throw CodeHostError(message: "\(address) is not an address") }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        }
        let answer: HTTPExchange.Answer
        switch HTTPExchange.send(request, budget: budget) {
        case .success(let received): answer = received
        case .failure(let failure): throw CodeHostError(message: failure.message)
        }
        guard (200..<300).contains(answer.status) else {
            let text = String(decoding: answer.body.prefix(300), as: UTF8.self)
            let message = (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["message"]
            throw CodeHostError(status: answer.status, message: (message as? String) ?? text)
        }
        guard !answer.body.isEmpty else { return ([String: Any](), answer.headers) }
        guard let json = try? JSONSerialization.jsonObject(with: answer.body) else {
            throw CodeHostError(status: answer.status, message: "\(method) \(url.path) answered with no JSON")
        }
        return (json, answer.headers)
    }
}

extension CodeHostRequest {
    /// Every comment of a listing paged 100 at a time (`address` ends in `page=`): id and body,
    /// in the listing's order.
    package func comments(pagedAt address: String) throws(CodeHostError) -> [(id: String, body: String)] {
        var all: [(id: String, body: String)] = []
        for page in 1...50 {
            let listed = try send("GET", address + "\(page)").json as? [[String: Any]] ?? []
            all += listed.compactMap { comment in
                (comment["id"] as? Int).map { (String($0), comment["body"] as? String ?? "") }
            }
            if listed.count < 100 { break }
        }
        return all
    }
}

/// A pull request's or merge request's comments, as a code host keeps them.
package protocol CommentThread {
    /// `pull request #12 of org/app`.
    var name: String { get }
    /// The host, for messages: `GitHub`, `GitLab`.
    var host: String { get }
    /// Every comment: its id and body, oldest first.
    func comments() throws(CodeHostError) -> [(id: String, body: String)]
    func create(_ body: String) throws(CodeHostError)
    func edit(id: String, _ body: String) throws(CodeHostError)
}
