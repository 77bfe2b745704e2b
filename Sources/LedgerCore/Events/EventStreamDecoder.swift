import Foundation

/// Decodes the Ledger event stream one line at a time, naming the line of any problem.
public struct EventStreamDecoder {
    private let decoder = JSONDecoder()
    /// The source name errors are attributed to.
    public let source: String
    /// Lines of unknown types, skipped as the stream's rules say.
    public private(set) var warnings: [String] = []

    public init(source: String) {
        self.source = source
    }

    /// Forgets the warnings read so far.
    public mutating func clearWarnings() {
        warnings.removeAll()
    }

    /// Decodes one line; `nil` for a blank line or an unknown event type (a warning is kept).
    /// - Throws: ``LedgerInputError`` for a line that is not JSON or lacks a required field.
    public mutating func decode(line: Data, number: Int) throws -> LedgerRecord? {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
        do {
            let record = try decoder.decode(LedgerRecord.self, from: line)
            guard UUID(uuidString: record.run) != nil else {
                throw error(number, "`run` is \"\(record.run)\", not a UUID string")
            }
            return record
        } catch let unknown as UnknownEventType {
            warnings.append("\(source):\(number): skipped unknown event type \"\(unknown.type)\"")
            return nil
        } catch let decoding as DecodingError {
            throw error(number, Self.explain(decoding))
        }
    }

    private func error(_ line: Int, _ problem: String) -> LedgerInputError {
        LedgerInputError(
            source: source, line: line, problem: problem,
            fix: "each line must be one JSON object of the Ledger event stream v1, see DESIGN.md")
    }

    static func explain(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            let path = (context.codingPath + [key]).map(\.stringValue).joined(separator: ".")
            return "required field `\(path)` is missing"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "field `\(path)` is not a valid \(Self.describe(type))"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "not valid JSON" }
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "field `\(path)`: \(context.debugDescription)"
        @unknown default:
            return "not a valid event"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "string"
        case is Int.Type: "integer"
        case is Double.Type: "number"
        case is Bool.Type: "boolean"
        default: "value"
        }
    }
}
