import Hummingbird

/// Dashboard pages as responses, with headers that forbid scripts, framing and outside assets.
enum DashboardResponse {
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; "
        + "base-uri 'none'; frame-ancestors 'none'"

    static func page(_ html: HTML, status: HTTPResponse.Status = .ok, headers extra: HTTPFields = [:]) -> Response {
        var headers = extra
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.contentSecurityPolicy] = contentSecurityPolicy
        headers[.xContentTypeOptions] = "nosniff"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html.description)))
    }

    static func error(_ status: HTTPResponse.Status, message: String?) -> Response {
        page(ErrorPage.render(status, message: message), status: status)
    }
}
