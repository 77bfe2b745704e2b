import Foundation

/// Decodes the Ledger event stream one line at a time, naming the line of any problem.
///
/// Lines are read by a strict byte-level JSON scanner straight into records, not through
/// `JSONDecoder`: the semantics and the wording of problems are those of `LedgerRecord`'s Codable
/// conformance, several times faster. A run id or test id that repeats the previous line's is
/// reused rather than decoded again.
public struct EventStreamDecoder {
    /// The source name errors are attributed to.
    public let source: String
    /// Lines of unknown types, skipped as the stream's rules say.
    public private(set) var warnings: [String] = []
    private var members = JSONMemberTable<LedgerRecord.Field>()
    private var recent = LedgerRecord.RecentStrings()
    /// The last run id found to be a UUID string.
    private var checkedRun: String?

    /// Creates a decoder that has read nothing.
    /// - Parameter source: the name errors and warnings name: a path, `-` for standard input, or a
    ///   request.
    public init(source: String) {
        self.source = source
    }

    /// Forgets the warnings read so far.
    public mutating func clearWarnings() {
        warnings.removeAll()
    }

    /// Decodes one line; `nil` for a blank line or an unknown event type (a warning is kept).
    /// - Parameters:
    ///   - line: one line of the stream, without its line break.
    ///   - number: its 1-based line number, for errors and warnings.
    /// - Returns: the record; `nil` for a blank line or an unknown event type.
    /// - Throws: ``LedgerInputError`` for a line that is not JSON or lacks a required field.
    public mutating func decode(line: Data, number: Int) throws -> LedgerRecord? {
        do {
            guard let record = try line.withUnsafeBytes({ bytes in try read(bytes) }) else { return nil }
            if record.run != checkedRun {
                guard UUID(uuidString: record.run) != nil else {
                    throw error(number, "`run` is \"\(record.run)\", not a UUID string")
                }
                checkedRun = record.run
            }
            return record
        } catch let unknown as UnknownEventType {
            warnings.append("\(source):\(number): skipped unknown event type \"\(unknown.type)\"")
            return nil
        } catch let problem as JSONFieldProblem {
            throw error(number, problem.message)
        } catch let syntax as JSONError {
            throw error(number, syntax.reason == .notAnObject ? "not a JSON object" : "not valid JSON: \(syntax)")
        }
    }

    /// The record on one line; `nil` for a line of nothing but spaces, tabs and carriage returns.
    private mutating func read(_ bytes: UnsafeRawBufferPointer) throws -> LedgerRecord? {
        let isBlank = !bytes.contains { $0 != ASCII.space && $0 != ASCII.tab && $0 != ASCII.carriageReturn }
        if isBlank { return nil }
        var scanner = JSONScanner(bytes)
        scanner.skipByteOrderMark()
        scanner.skipWhitespace()
        guard try scanner.peek() == ASCII.openBrace else {
            _ = try scanner.scanValue(depth: 1)
            try scanner.expectEnd()
            throw JSONError(.notAnObject, at: 0)
        }
        try members.gather(from: &scanner, depth: 1)
        try scanner.expectEnd()
        return try LedgerRecord(reading: JSONFieldReader(scanner: scanner, members: members), recent: &recent)
    }

    private func error(_ line: Int, _ problem: String) -> LedgerInputError {
        LedgerInputError(
            source: source, line: line, problem: problem,
            fix: "each line must be one JSON object of the Ledger event stream v1: \(LedgerRecord.specification)")
    }
}
