/// Input that cannot be stored: names where (file and line), what is wrong and how to fix it.
public struct LedgerInputError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file (or `-` for standard input, or a request) the input came from.
    public var source: String
    /// The 1-based line, when the problem has one.
    public var line: Int?
    /// What is wrong with the input.
    public var problem: String
    /// How to fix it; `nil` when there is nothing to suggest.
    public var fix: String?

    /// Creates an error.
    /// - Parameters:
    ///   - source: the file (or `-`, or a request) the input came from.
    ///   - line: the 1-based line; `nil` when the problem has none.
    ///   - problem: what is wrong.
    ///   - fix: how to fix it; `nil` when there is nothing to suggest.
    public init(source: String, line: Int? = nil, problem: String, fix: String? = nil) {
        self.source = source
        self.line = line
        self.problem = problem
        self.fix = fix
    }

    /// `source:line: problem (fix)`, without the line or the fix when there is none.
    public var description: String {
        var text = source
        if let line { text += ":\(line)" }
        text += ": \(problem)"
        if let fix { text += " (\(fix))" }
        return text
    }

    /// The same error attributed to another source name.
    /// - Parameter source: the new source name, such as `request body`.
    /// - Returns: a copy whose ``source`` is `source`.
    public func from(source: String) -> LedgerInputError {
        var copy = self
        copy.source = source
        return copy
    }
}
