import Foundation
import Hummingbird
import LedgerCore

/// What routes read off a request besides its body.
extension Request {
    /// The first value of a header, by its name in any case.
    func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.canonicalName == wanted }?.value
    }

    /// The body, decoded from JSON; a bad request naming what was `expected` when it is not.
    /// - Parameters:
    ///   - type: what the body holds.
    ///   - limit: the largest body accepted, in bytes.
    ///   - expected: the body's shape, for the error's message.
    /// - Returns: the decoded body.
    /// - Throws: `HTTPError` (bad request) when the body is not `type`; the body's error when it is too large.
    func decodeJSON<Body: Decodable>(_ type: Body.Type, upTo limit: Int, expected: String) async throws -> Body {
        let body = try await self.body.collect(upTo: limit)
        do {
            return try JSONDecoder().decode(type, from: Data(buffer: body))
        } catch {
            throw HTTPError(.badRequest, message: "request body: expected " + expected)
        }
    }

    /// `?base=`: the branch failures are judged against, `main` by default.
    var base: String {
        uri.queryParameters.get("base").map { String($0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "main"
    }

    /// `?owner=`: only this owner's tests.
    var owner: String? {
        uri.queryParameters.get("owner").map { String($0) }
    }

    /// A count from the query, kept within 1…1000.
    func count(_ name: String, default fallback: Int) -> Int {
        let value = uri.queryParameters.get(name).flatMap { Int($0) } ?? fallback
        return min(max(value, 1), 1000)
    }

    /// `?since=`: a duration back from now (`14d`, `12h`) or a date.
    func since() throws -> Double? {
        guard let text = uri.queryParameters.get("since") else { return nil }
        do {
            return try TimeWindow.start(String(text))
        } catch {
            throw HTTPError(.badRequest, message: "since=\(text) is not a duration (14d, 12h) or a date (2026-11-01)")
        }
    }
}
