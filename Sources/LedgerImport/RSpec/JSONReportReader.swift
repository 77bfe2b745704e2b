import Foundation
import LedgerCore

/// Reads a report that is one JSON document (RSpec's `--format json`, `xcresulttool` output)
/// into Decodable values, turning what goes wrong into a ``LedgerInputError``.
///
/// Such a report cannot be read line by line: it is read whole, up to ``maximumSize``.
struct JSONReportReader {
    /// The largest input read, in bytes: 512 MiB.
    static let maximumSize = 512 << 20

    /// The name errors are attributed to.
    var sourceName: String
    /// What the report is, for messages: `an RSpec JSON report`.
    var kind: String
    /// How to produce it, for messages.
    var fix: String

    /// The bytes of `input`.
    /// - Throws: ``LedgerInputError`` when the file cannot be read or is too large.
    func data(of input: LineReader.Input) throws -> Data {
        switch input {
        case .data(let data):
            guard data.count <= Self.maximumSize else { throw tooLarge() }
            return data
        case .file(let url):
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
            guard size <= Self.maximumSize else { throw tooLarge() }
            do {
                return try Data(contentsOf: url)
            } catch {
                throw LedgerInputError(
                    source: sourceName, problem: "cannot read the file: \(error.localizedDescription)")
            }
        }
    }

    /// `input` decoded as `type`.
    /// - Throws: ``LedgerInputError`` naming what is wrong and where in the document.
    func decode<Value: Decodable>(_ type: Value.Type, from input: LineReader.Input) throws -> Value {
        try decode(type, from: data(of: input))
    }

    /// The first JSON object of `input` decoded as `type`, and how many bytes other than white
    /// space follow it (text another tool printed after the report).
    /// - Throws: ``LedgerInputError`` naming what is wrong and where in the document.
    func decodeFirstObject<Value: Decodable>(_ type: Value.Type, from input: LineReader.Input) throws -> (
        value: Value, ignored: Int
    ) {
        let data = try data(of: input)
        guard let end = JSONObjectExtent.end(in: data), !JSONObjectExtent.onlySpace(in: data, from: end) else {
            return (try decode(type, from: data), 0)
        }
        return (try decode(type, from: data.prefix(end)), data.count - end)
    }

    private func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw LedgerInputError(source: sourceName, problem: problem(error), fix: fix)
        } catch {
            throw LedgerInputError(source: sourceName, problem: "not \(kind): \(error)", fix: fix)
        }
    }

    private func tooLarge() -> LedgerInputError {
        LedgerInputError(
            source: sourceName, problem: "the file is larger than \(Self.maximumSize >> 20) MiB",
            fix: "split the report, or check that this is \(kind)")
    }

    /// What `error` says, with the path of the value at fault (`examples[3].status`).
    private func problem(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            let detail = (context.underlyingError.map { "\($0)" } ?? context.debugDescription)
            return "not \(kind): the JSON is malformed (\(detail.prefix(300)))"
        case .dataCorrupted(let context):
            return "not \(kind): \(Self.path(context.codingPath)) is malformed (\(context.debugDescription))"
        case .keyNotFound(let key, let context):
            return "not \(kind): \(Self.path(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context):
            return "not \(kind): \(Self.path(context.codingPath)) is not \(Self.describe(type))"
        case .valueNotFound(let type, let context):
            return "not \(kind): \(Self.path(context.codingPath)) is null, not \(Self.describe(type))"
        @unknown default:
            return "not \(kind): \(error)"
        }
    }

    /// `examples[3].status` for a coding path.
    static func path(_ keys: [any CodingKey]) -> String {
        guard !keys.isEmpty else { return "the document" }
        var text = ""
        for key in keys {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "a boolean"
        default: "the expected kind of value"
        }
    }
}
