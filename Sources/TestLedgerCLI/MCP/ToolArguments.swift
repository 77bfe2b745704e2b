import MCP

/// A tool's arguments, read with the errors an agent can act on.
struct ToolArguments {
    var values: [String: Value]
    var tool: String

    func string(_ name: String) throws -> String {
        guard let text = try optionalString(name), !text.isEmpty else {
            throw MCPError.invalidParams("\(tool): the argument \(name) is required")
        }
        return text
    }

    func optionalString(_ name: String) throws -> String? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw MCPError.invalidParams("\(tool): \(name) is a string") }
        return text
    }

    /// A count of 1 or more.
    func count(_ name: String) throws -> Int? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let number = value.intValue ?? value.doubleValue.flatMap({ Int(exactly: $0) }),
            number >= 1
        else { throw MCPError.invalidParams("\(tool): \(name) is a whole number, 1 or more") }
        return number
    }

    func limit() throws -> Int { min(try count("limit") ?? LedgerTools.defaultLimit, LedgerTools.mostListed) }
}
