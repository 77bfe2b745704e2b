/// Markup in which every interpolated `String` is escaped: `"<td>\(name)</td>" as HTML` shows
/// a name as text whatever it contains; only other `HTML` values go in unescaped.
struct HTML: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    private(set) var description: String

    init(stringLiteral literal: String) {
        description = literal
    }

    init(stringInterpolation: StringInterpolation) {
        description = stringInterpolation.text
    }

    /// Pieces one after the other.
    init(_ pieces: some Sequence<HTML>) {
        description = pieces.map(\.description).joined()
    }

    struct StringInterpolation: StringInterpolationProtocol {
        var text = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + interpolationCount * 16)
        }

        mutating func appendLiteral(_ literal: String) { text += literal }

        mutating func appendInterpolation(_ value: String) { text += HTML.escape(value) }

        mutating func appendInterpolation(_ value: Int) { text += String(value) }

        mutating func appendInterpolation(_ markup: HTML) { text += markup.description }

        mutating func appendInterpolation(_ pieces: [HTML]) { text += HTML(pieces).description }
    }

    /// Text made safe anywhere in an element or a quoted attribute: `&`, `<`, `>`, `"`, `'`.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// One URL path segment (or query value): everything but unreserved characters is
    /// percent-encoded, `/` included, so a test id stays one segment.
    static func urlComponent(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded +=
                    "%" + String(byte >> 4, radix: 16, uppercase: true)
                    + String(byte & 0xF, radix: 16, uppercase: true)
            }
        }
        return encoded
    }
}

/// The dashboard's addresses, each segment percent-encoded.
enum DashboardPath {
    static func project(_ project: String) -> String {
        "/projects/" + HTML.urlComponent(project)
    }

    static func run(_ run: String, project: String) -> String {
        Self.project(project) + "/runs/" + HTML.urlComponent(run)
    }

    static func test(_ test: String, project: String, run: String? = nil) -> String {
        Self.project(project) + "/tests/" + HTML.urlComponent(test)
            + (run.map { "?run=" + HTML.urlComponent($0) } ?? "")
    }
}
