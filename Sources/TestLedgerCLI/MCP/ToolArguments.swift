import LedgerCore
import MCP

/// A tool's arguments, read with the errors an agent can act on.
struct ToolArguments {
    var values: [String: Value]
    var tool: String
    /// How many times the answer's lists are halved, to fit its bytes.
    var halvings = 0

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

    /// The test named, by its id or its dashboard address.
    func test() throws -> TestReference { TestReference(try string("test")) }

    /// The run named, else the one the test's dashboard address names.
    func run() throws -> String? {
        try optionalString("run") ?? (values["test"]?.stringValue).flatMap { TestReference($0).run }
    }

    /// A count of 1 or more.
    func count(_ name: String) throws -> Int? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let number = value.intValue ?? value.doubleValue.flatMap({ Int(exactly: $0) }),
            number >= 1
        else { throw MCPError.invalidParams("\(tool): \(name) is a whole number, 1 or more") }
        return number
    }

    /// A rate above 0, at most 1.
    func rate(_ name: String) throws -> Double? {
        guard let value = values[name], !value.isNull else { return nil }
        guard let rate = value.doubleValue ?? value.intValue.map(Double.init), rate > 0, rate <= 1 else {
            throw MCPError.invalidParams("\(tool): \(name) is a failure rate above 0, at most 1 (0.05 for 1 in 20)")
        }
        return rate
    }

    func limit() throws -> Int { cut(min(try count("limit") ?? LedgerTools.defaultLimit, LedgerTools.mostListed)) }

    /// `entries`, halved as often as the answer's bytes asked, at least 1.
    func cut(_ entries: Int) -> Int { max(1, entries >> halvings) }
}
