import Foundation
import Hummingbird
import LedgerTestSupport
import Testing

/// GitHub's and GitLab's REST APIs as far as comments and check runs go, on 127.0.0.1: it keeps
/// the comments and check runs it is sent and records every request.
actor StandInCodeHost {
    struct Request: Sendable {
        var method: String
        var path: String
        /// The JSON body, when there was one.
        var body: [String: any Sendable]?
        var authorization: String?
    }

    /// Answers every request with this status, as a fork's read-only token gets.
    let refusal: HTTPResponse.Status?
    private(set) var requests: [Request] = []
    /// The comments (GitHub) or notes (GitLab) of the one request, by id, oldest first.
    private(set) var comments: [(id: Int, body: String)]
    private var nextID = 100

    init(comments: [String] = [], refusal: HTTPResponse.Status? = nil) {
        self.comments = comments.enumerated().map { ($0.offset + 1, $0.element) }
        self.refusal = refusal
    }

    /// The requests that changed something: `POST /…/comments`, `PATCH /…/check-runs/1`.
    var changes: [String] { requests.filter { $0.method != "GET" }.map { "\($0.method) \($0.path)" } }

    func answer(_ method: String, _ path: String, _ body: [String: any Sendable]?, _ authorization: String?)
        -> (HTTPResponse.Status, Data)
    {
        let (status, json) = handle(method, path, body, authorization)
        return (status, (try? JSONSerialization.data(withJSONObject: json)) ?? Data())
    }

    private func handle(_ method: String, _ path: String, _ body: [String: any Sendable]?, _ authorization: String?)
        -> (HTTPResponse.Status, Any)
    {
        requests.append(Request(method: method, path: path, body: body, authorization: authorization))
        if let refusal { return (refusal, ["message": "Resource not accessible by integration"]) }
        let parts = path.split(separator: "/").map(String.init)
        switch (method, parts.last) {
        case ("GET", "comments"), ("GET", "notes"):
            return (.ok, comments.map { ["id": $0.id, "body": $0.body] as [String: Any] })
        case ("POST", "comments"), ("POST", "notes"):
            nextID += 1
            comments.append((nextID, body?["body"] as? String ?? ""))
            return (.created, ["id": nextID])
        case ("POST", "check-runs"):
            return (.created, ["id": 7])
        default:
            guard let id = parts.last.flatMap({ Int($0) }) else { return (.notFound, ["message": "Not Found"]) }
            if parts.dropLast().last == "check-runs" { return (.ok, ["id": id]) }
            guard let index = comments.firstIndex(where: { $0.id == id }) else {
                return (.notFound, ["message": "Not Found"])
            }
            comments[index].body = body?["body"] as? String ?? ""
            return (.ok, ["id": id])
        }
    }

    /// Runs `body` with the stand-in's address.
    func serve<T: Sendable>(_ body: @escaping @Sendable (String) async throws -> T) async throws -> T {
        let router = Router()
        router.on("**", method: .get) { request, _ in try await self.respond(request) }
        router.on("**", method: .post) { request, _ in try await self.respond(request) }
        router.on("**", method: .patch) { request, _ in try await self.respond(request) }
        router.on("**", method: .put) { request, _ in try await self.respond(request) }
        return try await LoopbackServer.serve(router, body)
    }

    private nonisolated func respond(_ request: Request_) async throws -> Response {
        let data = try await request.body.collect(upTo: 16 << 20)
        let json = (try? JSONSerialization.jsonObject(with: Data(buffer: data))) as? [String: Any]
        let sendable = json.map { $0.mapValues { JSONBox.sendable($0) } }
        let (status, answer) = await answer(
            request.method.rawValue, request.uri.path, sendable,
            request.headers[.authorization]
                ?? request.headers.first { $0.name.canonicalName == "private-token" }.map {
                    "PRIVATE-TOKEN \($0.value)"
                })
        let bytes = answer
        return Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(data: bytes)))
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
