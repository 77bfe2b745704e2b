import Foundation
import Hummingbird

/// JSON responses, encoded as the CLI's `--format json` encodes them.
enum JSONResponse {
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func text(_ text: String, status: HTTPResponse.Status = .ok, type: String = "text/plain; charset=utf-8")
        -> Response
    {
        Response(status: status, headers: [.contentType: type], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
