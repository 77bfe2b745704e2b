/// Input that cannot be stored: names where (file and line), what is wrong and how to fix it.
public struct LedgerInputError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file (or `-` for standard input, or a request) the input came from.
    public var source: String
    /// The 1-based line, when the problem has one.
    public var line: Int?
    public var problem: String
    public var fix: String?

    public init(source: String, line: Int? = nil, problem: String, fix: String? = nil) {
        self.source = source
        self.line = line
        self.problem = problem
        self.fix = fix
    }

    public var description: String {
        var text = source
        if let line { text += ":\(line)" }
        text += ": \(problem)"
        if let fix { text += " (\(fix))" }
        return text
    }

    /// The same error attributed to another source name.
    public func from(source: String) -> LedgerInputError {
        var copy = self
        copy.source = source
        return copy
    }
}
