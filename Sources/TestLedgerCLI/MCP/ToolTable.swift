import MCP

/// One tool: what an agent is told of it, and how it is answered.
struct ToolSpec: Sendable {
    let name: String
    let description: String
    let arguments: [String: Argument]
    var required: [String] = []
    /// Offered only with `--allow-quarantine`.
    var changesTheLedger = false
    let answer: @Sendable (LedgerTools, ToolArguments) throws -> String

    /// What one argument is, for a tool's JSON schema.
    enum Argument {
        case string(String)
        case integer(String)

        var schema: Value {
            switch self {
            case .string(let text): ["type": "string", "description": .string(text)]
            case .integer(let text): ["type": "integer", "minimum": 1, "description": .string(text)]
            }
        }
    }

    var tool: Tool {
        Tool(
            name: name, description: description,
            inputSchema: .object([
                "type": "object", "properties": .object(arguments.mapValues(\.schema)),
                "required": .array(required.map { .string($0) }), "additionalProperties": false,
            ]))
    }
}

extension LedgerTools {
    /// Every tool, in the order they are listed: `tools/list`, `tools/call` and `mcp --help` read it.
    static let table: [ToolSpec] = [
        ToolSpec(
            name: "flaky_tests",
            description:
                "The flaky tests, the flakiest first, with their failure rate, outcome strip and likely culprit.",
            arguments: [
                "window": .integer("How many of the newest runs to judge (default: the project's window, 30)."),
                "owner": .string("Only this owner's tests (@team)."),
                "limit": .integer("How many tests to list (default 10, at most 50)."),
            ], answer: { try $0.flaky($1) }),
        ToolSpec(
            name: "run_summary",
            description: "What each failure of a run means: new, known flaky, failing on the base too…",
            arguments: [
                "run": .string("The run's id (default: the newest)."),
                "base": .string("The base branch (default main)."),
            ], answer: { try $0.runSummary($1) }),
        ToolSpec(
            name: "test_detail",
            description:
                "One test in a run: its attempts, activities, captures, predicates, issues, and its recent history.",
            arguments: [
                "test": .string("The test's id."), "run": .string("The run's id (default: its newest)."),
                "attempt": .integer("Which attempt, 1 being the first (default: the final one)."),
            ], required: ["test"], answer: { try $0.testDetail($1) }),
        ToolSpec(
            name: "culprit",
            description: "Why a flaky test fails: what separates its failing attempts from its passing ones.",
            arguments: ["test": .string("The test's id."), "window": .integer("Runs to compare (default 60).")],
            required: ["test"], answer: { try $0.culprit($1) }),
        ToolSpec(
            name: "failure_groups", description: "Failures grouped by cause across recent runs, the largest first.",
            arguments: [
                "window": .integer("How many of the newest runs (default: the project's window, 30)."),
                "limit": .integer("How many groups (default 10, at most 50)."),
            ], answer: { try $0.failureGroups($1) }),
        ToolSpec(
            name: "slow_tests", description: "The slowest tests and the ones that became slower.",
            arguments: [
                "window": .integer("How many of the newest runs (default: the project's window, 30)."),
                "limit": .integer("How many tests (default 10, at most 50)."),
            ], answer: { try $0.slowTests($1) }),
        ToolSpec(
            name: "quarantine",
            description: "Quarantine a test (mute: it runs, its failure does not fail the build) or release it.",
            arguments: [
                "test": .string("The test's id."), "action": .string("add or remove."),
                "reason": .string("Why, for the audit trail."), "mode": .string("mute (default) or skip."),
            ], required: ["test", "action", "reason"], changesTheLedger: true, answer: { try $0.quarantine($1) }),
    ]

    /// The tools as `mcp --help` lists them, one line each.
    static var help: String {
        table.map { spec in
            "  \(spec.name): \(spec.description)" + (spec.changesTheLedger ? " (with --allow-quarantine)" : "")
        }.joined(separator: "\n")
    }
}
