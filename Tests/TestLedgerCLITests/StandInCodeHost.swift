import Foundation
import Hummingbird
import LedgerTestSupport
import Testing

/// GitHub's and GitLab's REST APIs as far as comments and check runs go, on 127.0.0.1, as strict
/// as the services: only their exact routes (anything else is 404 `Not Found`), listings paged
/// by `per_page` and `page` with `Link` headers (GitLab's newest first unless `sort=asc`), 422
/// for a body the service refuses (no `body`; a check run's output without `title` or `summary`,
/// an annotation without its required fields, more than 50 in one request), and
/// check runs kept by the id they were created with. It records every request.
actor StandInCodeHost {
    struct Request: Sendable {
        var method: String
        var path: String
        var query: String
        /// The JSON body, when there was one.
        var body: [String: any Sendable]?
        var authorization: String?
    }

    /// A check run as created and updated: its annotations, in the order they came.
    struct CheckRun: Sendable {
        var name: String
        var annotations: Int
    }

    /// Answers every request with this status, as a fork's read-only token gets.
    let refusal: HTTPResponse.Status?
    private(set) var requests: [Request] = []
    /// The comments (GitHub) or notes (GitLab) of the one pull or merge request, by id, oldest first.
    private(set) var comments: [(id: Int, body: String)]
    private(set) var checkRuns: [Int: CheckRun] = [:]
    private var nextID = 100
    private var nextCheckRun = 7

    init(comments: [String] = [], refusal: HTTPResponse.Status? = nil) {
        self.comments = comments.enumerated().map { ($0.offset + 1, $0.element) }
        self.refusal = refusal
    }

    /// The requests that changed something: `POST /…/comments`, `PATCH /…/check-runs/7`.
    var changes: [String] { requests.filter { $0.method != "GET" }.map { "\($0.method) \($0.path)" } }

    func answer(
        _ method: String, _ path: String, _ query: String, _ body: [String: any Sendable]?, _ authorization: String?
    ) -> (HTTPResponse.Status, Data, [String: String]) {
        requests.append(Request(method: method, path: path, query: query, body: body, authorization: authorization))
        let (status, json, headers) =
            refusal.map { ($0, ["message": "Resource not accessible by integration"] as Any, [:]) }
            ?? route(method, path, Self.parameters(query), body)
        return (status, (try? JSONSerialization.data(withJSONObject: json)) ?? Data(), headers)
    }

    private func route(_ method: String, _ path: String, _ query: [String: String], _ body: [String: any Sendable]?)
        -> (HTTPResponse.Status, Any, [String: String])
    {
        let github = "/repos/{}/{}/", gitlab = "/api/v4/projects/{}/merge_requests/{}/notes"
        switch method {
        case "GET" where Self.match(github + "issues/{}/comments", path) != nil:
            return listing(path, query, newestFirst: false, defaultPage: 30)
        case "GET" where Self.match(gitlab, path) != nil:
            return listing(path, query, newestFirst: query["sort"] != "asc", defaultPage: 20)
        case "POST" where Self.match(github + "issues/{}/comments", path) != nil || Self.match(gitlab, path) != nil:
            guard let text = body?["body"] as? String else { return Self.unprocessable("body is missing") }
            nextID += 1
            comments.append((nextID, text))
            return (.created, ["id": nextID], [:])
        case "PATCH" where Self.match(github + "issues/comments/{}", path) != nil,
            "PUT" where Self.match(gitlab + "/{}", path) != nil:
            guard let text = body?["body"] as? String else { return Self.unprocessable("body is missing") }
            guard let id = path.split(separator: "/").last.flatMap({ Int($0) }),
                let index = comments.firstIndex(where: { $0.id == id })
            else { return Self.notFound }
            comments[index].body = text
            return (.ok, ["id": id], [:])
        case "POST" where Self.match(github + "check-runs", path) != nil:
            guard let name = body?["name"] as? String, body?["head_sha"] is String else {
                return Self.unprocessable("name and head_sha are required")
            }
            let count: Int
            switch Self.annotations(body) {
            case .success(let counted): count = counted
            case .failure(let refusal): return Self.unprocessable(refusal.why)
            }
            nextCheckRun += 1
            checkRuns[nextCheckRun - 1] = CheckRun(name: name, annotations: count)
            return (.created, ["id": nextCheckRun - 1], [:])
        case "PATCH" where Self.match(github + "check-runs/{}", path) != nil:
            guard let id = path.split(separator: "/").last.flatMap({ Int($0) }), checkRuns[id] != nil else {
                return Self.notFound
            }
            switch Self.annotations(body) {
            case .success(let count): checkRuns[id]?.annotations += count
            case .failure(let refusal): return Self.unprocessable(refusal.why)
            }
            return (.ok, ["id": id], [:])
        default:
            return Self.notFound
        }
    }

    /// One page of the thread's comments, with the `Link` header the services send.
    private func listing(_ path: String, _ query: [String: String], newestFirst: Bool, defaultPage: Int)
        -> (HTTPResponse.Status, Any, [String: String])
    {
        let size = min(100, max(1, query["per_page"].flatMap { Int($0) } ?? defaultPage))
        let page = max(1, query["page"].flatMap { Int($0) } ?? 1)
        let ordered = newestFirst ? Array(comments.reversed()) : comments
        let pages = max(1, (ordered.count + size - 1) / size)
        let slice = ordered.dropFirst((page - 1) * size).prefix(size)
        var links: [String] = []
        func link(_ number: Int, _ relation: String) {
            var parameters = query
            parameters["page"] = String(number)
            let text = parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
            links.append("<http://127.0.0.1\(path)?\(text)>; rel=\"\(relation)\"")
        }
        if page < pages { link(page + 1, "next") }
        link(pages, "last")
        return (
            .ok, slice.map { ["id": $0.id, "body": $0.body] as [String: Any] }, ["Link": links.joined(separator: ", ")]
        )
    }

    private static var notFound: (HTTPResponse.Status, Any, [String: String]) {
        (.notFound, ["message": "Not Found"], [:])
    }

    private static func unprocessable(_ why: String) -> (HTTPResponse.Status, Any, [String: String]) {
        (.unprocessableContent, ["message": "Validation Failed: \(why)"], [:])
    }

    struct Refusal: Error {
        var why: String
    }

    /// How many annotations a check run's body carries, or what GitHub refuses in its `output`
    /// (422): no `title` or `summary`, an annotation without `path`, `start_line`, `end_line`,
    /// `message` or an `annotation_level` of notice, warning or failure, over 50 in one request.
    private static func annotations(_ body: [String: any Sendable]?) -> Result<Int, Refusal> {
        guard let output = body?["output"] as? [String: any Sendable] else { return .success(0) }
        guard output["title"] is String, output["summary"] is String else {
            return .failure(Refusal(why: "output.title and output.summary are required"))
        }
        let annotations = (output["annotations"] as? [any Sendable]) ?? []
        guard annotations.count <= 50 else { return .failure(Refusal(why: "at most 50 annotations a request")) }
        for case let annotation as [String: any Sendable] in annotations {
            let complete =
                annotation["path"] is String && annotation["start_line"] is Double && annotation["end_line"] is Double
                && annotation["message"] is String
                && ["notice", "warning", "failure"].contains(annotation["annotation_level"] as? String ?? "")
            guard complete else {
                return .failure(
                    Refusal(
                        why: "an annotation needs path, start_line, end_line, message and annotation_level "
                            + "(notice, warning or failure)"))
            }
        }
        return annotations.count == annotations.count { $0 is [String: any Sendable] }
            ? .success(annotations.count) : .failure(Refusal(why: "annotations are objects"))
    }

    /// `path`'s parts where `pattern` has `{}`; `nil` when it does not match it exactly.
    static func match(_ pattern: String, _ path: String) -> [String]? {
        let expected = pattern.split(separator: "/", omittingEmptySubsequences: false)
        let given = path.split(separator: "/", omittingEmptySubsequences: false)
        guard expected.count == given.count else { return nil }
        var captured: [String] = []
        for (want, have) in zip(expected, given) {
            if want == "{}" {
                guard !have.isEmpty else { return nil }
                captured.append(String(have))
            } else if want != have {
                return nil
            }
        }
        return captured
    }

    static func parameters(_ query: String) -> [String: String] {
        var parameters: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            parameters[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return parameters
    }

    /// Runs `body` with the stand-in's address.
    func serve<T: Sendable>(_ body: @escaping @Sendable (String) async throws -> T) async throws -> T {
        let router = Router()
        router.on("**", method: .get) { request, _ in try await self.respond(request) }
        router.on("**", method: .post) { request, _ in try await self.respond(request) }
        router.on("**", method: .patch) { request, _ in try await self.respond(request) }
        router.on("**", method: .put) { request, _ in try await self.respond(request) }
        router.on("**", method: .delete) { request, _ in try await self.respond(request) }
        return try await LoopbackServer.serve(router, body)
    }

    private nonisolated func respond(_ request: Request_) async throws -> Response {
        let data = try await request.body.collect(upTo: 16 << 20)
        let json = (try? JSONSerialization.jsonObject(with: Data(buffer: data))) as? [String: Any]
        let sendable = json.map { $0.mapValues { JSONBox.sendable($0) } }
        let (status, answer, headers) = await answer(
            request.method.rawValue, request.uri.path, request.uri.query ?? "", sendable,
            request.headers[.authorization]
                ?? request.headers.first { $0.name.canonicalName == "private-token" }.map {
                    "PRIVATE-TOKEN \($0.value)"
                })
        var fields: HTTPFields = [.contentType: "application/json"]
        for (name, value) in headers {
            if let field = HTTPFields.Element.Name(name) { fields[field] = value }
        }
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(data: answer)))
    }
}

typealias Request_ = Hummingbird.Request

/// A JSON value made `Sendable` by copying it into plain values.
enum JSONBox {
    static func sendable(_ value: Any) -> any Sendable {
        switch value {
        case let text as String: text
        case let number as NSNumber: number.doubleValue
        case let array as [Any]: array.map(sendable)
        case let object as [String: Any]: object.mapValues(sendable)
        default: String(describing: value)
        }
    }
}
