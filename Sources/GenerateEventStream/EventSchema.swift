/// The event stream's schema as `LedgerEvents.schema` declares it.
struct EventSchema {
    /// An event type, or a JSON object that fields of events may hold.
    struct Declaration {
        /// The `type` string on the wire; `nil` for an object.
        var wireType: String?
        var name: String
        var summary: String
        var fields: [Field] = []

        /// The enum case that carries the event: `runStart` for `RunStart`.
        var caseName: String { name.prefix(1).lowercased() + name.dropFirst() }
    }

    struct Field {
        var name: String
        var type: String
        var isOptional: Bool
        var defaultValue: String?
        /// Read through `RecentStrings`, which keeps the value the line before had.
        var isReused: Bool
        var summary: String
        /// Where the schema declares it.
        var line: Int
    }

    var objects: [Declaration] = []
    var events: [Declaration] = []
}

/// A line of the schema that does not say what the grammar expects.
struct SchemaProblem: Error, CustomStringConvertible {
    var line: Int
    var message: String

    var description: String { "\(line): \(message)" }
}

extension EventSchema {
    /// Reads the schema's text: `object` and `event` lines, each followed by indented field lines.
    init(parsing text: String) throws {
        var current: Declaration?
        var currentIsEvent = false
        func finish() {
            guard let declaration = current else { return }
            if currentIsEvent { events.append(declaration) } else { objects.append(declaration) }
            current = nil
        }
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = rawLine.trimmingTrailingSpaces
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix(" ") {
                guard current != nil else {
                    throw SchemaProblem(line: number, message: "a field outside a declaration")
                }
                current?.fields.append(try Self.field(line.drop { $0 == " " }, line: number))
                continue
            }
            finish()
            let (head, summary) = try Self.splitSummary(line, separator: ": ", line: number)
            let words = head.split(separator: " ").map(String.init)
            switch (words.first, words.count) {
            case ("object", 2):
                current = Declaration(wireType: nil, name: words[1], summary: summary)
                currentIsEvent = false
            case ("event", 3):
                current = Declaration(wireType: words[1], name: words[2], summary: summary)
                currentIsEvent = true
            default:
                throw SchemaProblem(
                    line: number, message: "expected `object Name: summary` or `event wire.type Name: summary`")
            }
        }
        finish()
    }

    private static func field(_ text: Substring, line: Int) throws -> Field {
        let (declaration, summary) = try splitSummary(String(text), separator: " — ", line: line)
        guard let colon = declaration.firstIndex(of: ":") else {
            throw SchemaProblem(line: line, message: "expected `name: Type — summary`")
        }
        let name = String(declaration[..<colon])
        var type = declaration[declaration.index(after: colon)...].trimmingCharacters(in: " ")
        var defaultValue: String?
        if let equals = type.range(of: " = ") {
            defaultValue = String(type[equals.upperBound...])
            type = String(type[..<equals.lowerBound])
        }
        let isReused = type.hasSuffix(" reused")
        if isReused { type = String(type.dropLast(" reused".count)) }
        let isOptional = type.hasSuffix("?")
        if isOptional { type = String(type.dropLast()) }
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber }), !type.isEmpty else {
            throw SchemaProblem(line: line, message: "expected `name: Type — summary`")
        }
        return Field(
            name: name, type: type, isOptional: isOptional, defaultValue: defaultValue, isReused: isReused,
            summary: summary, line: line)
    }

    private static func splitSummary(_ line: String, separator: String, line number: Int) throws -> (String, String) {
        guard let range = line.range(of: separator) else {
            throw SchemaProblem(
                line: number, message: "missing `\(separator.trimmingCharacters(in: " "))` before the summary")
        }
        return (String(line[..<range.lowerBound]), String(line[range.upperBound...]))
    }
}

extension StringProtocol {
    var trimmingTrailingSpaces: String {
        var text = String(self)
        while text.last == " " || text.last == "\r" { text.removeLast() }
        return text
    }

    func trimmingCharacters(in character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}
