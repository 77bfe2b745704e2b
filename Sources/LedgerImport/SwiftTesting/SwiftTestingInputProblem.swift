import LedgerCore

/// Words for what is wrong with a line of a Swift Testing event stream.
enum SwiftTestingInputProblem {
    /// The fix suggested for a line that is not a record.
    static let recordFix =
        "each line must be one JSON record of Swift Testing's event stream, with `version`, `kind` and `payload`"

    /// The error for line `line` of `source`.
    static func error(
        source: String, line: Int, problem: String, fix: String = recordFix
    ) -> LedgerInputError {
        LedgerInputError(source: source, line: line, problem: problem, fix: fix)
    }

    /// What a decoding error means, naming the field at fault.
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "required field `\(path(context.codingPath + [key]))` is missing"
        case .typeMismatch(_, let context) where context.codingPath.isEmpty:
            return "not a JSON object"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "field `\(path(context.codingPath))` has the wrong type"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not valid JSON"
        case .dataCorrupted(let context):
            return "field `\(path(context.codingPath))`: \(context.debugDescription)"
        @unknown default:
            return "not a Swift Testing record"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
