import LedgerMCP
import MCP

/// One tool: what an agent is told of it, and how it is answered.
struct ToolSpec: Sendable {
    let name: String
    let description: String
    let arguments: [String: Argument]
    var required: [String] = []
    /// The answer's JSON Schema.
    let output: Value
    var effect = Effect.reads
    let answer: @Sendable (LedgerTools, ToolArguments) throws -> String

    /// What calling the tool does beyond answering.
    enum Effect {
        /// Nothing: it reads the ledger.
        case reads
        /// Changes the quarantine: offered only with `--allow-quarantine`.
        case changesQuarantine
        /// Runs the project's tests: offered only with `--allow-run`.
        case runsTests

        /// The hints MCP gives clients of what a call does.
        var annotations: Tool.Annotations {
            switch self {
            case .reads: .init(readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false)
            case .changesQuarantine:
                .init(readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false)
            case .runsTests:
                // The tests may reach anything they reach.
                .init(readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true)
            }
        }
    }

    /// What one argument is, for a tool's JSON schema.
    enum Argument {
        case string(String)
        case integer(String)
        case number(String)

        var schema: Value {
            switch self {
            case .string(let text): ["type": "string", "description": .string(text)]
            case .integer(let text): ["type": "integer", "minimum": 1, "description": .string(text)]
            case .number(let text): ["type": "number", "description": .string(text)]
            }
        }
    }

    /// Every tool that reads may be asked for a longer answer.
    static let maxBytes = Argument.integer(
        "The most bytes of JSON the answer may take (default 4096); its lists are cut to fit, saying how many more.")

    var tool: Tool {
        var properties = arguments.mapValues(\.schema)
        if effect == .reads { properties["max_bytes"] = Self.maxBytes.schema }
        return Tool(
            name: name, description: description,
            inputSchema: .object([
                "type": "object", "properties": .object(properties),
                "required": .array(required.map { .string($0) }), "additionalProperties": false,
            ]), annotations: effect.annotations, outputSchema: output)
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
            ], output: ToolSchemas.flakyTests, answer: { try $0.flaky($1) }),
        ToolSpec(
            name: "run_summary",
            description: "What each failure of a run means: new, known flaky, failing on the base too…",
            arguments: [
                "run": .string("The run's id (default: the newest)."),
                "base": .string("The base branch (default main)."),
            ], output: ToolSchemas.runSummary, answer: { try $0.runSummary($1) }),
        ToolSpec(
            name: "test_detail",
            description:
                "One test in a run: its attempts, activities, captures, predicates, issues, and its recent history.",
            arguments: [
                "test": .string(testArgument), "run": .string("The run's id (default: its newest)."),
                "attempt": .integer("Which attempt, 1 being the first (default: the final one)."),
            ], required: ["test"], output: ToolSchemas.testDetail, answer: { try $0.testDetail($1) }),
        ToolSpec(
            name: "culprit",
            description: "Why a flaky test fails: what separates its failing attempts from its passing ones.",
            arguments: [
                "test": .string(testArgument),
                "window": .integer("Runs to compare (default: the project's window, 30)."),
            ],
            required: ["test"], output: ToolSchemas.culprit, answer: { try $0.culprit($1) }),
        ToolSpec(
            name: "failure_groups", description: "Failures grouped by cause across recent runs, the largest first.",
            arguments: [
                "window": .integer("How many of the newest runs (default: the project's window, 30)."),
                "limit": .integer("How many groups (default 10, at most 50)."),
            ], output: ToolSchemas.failureGroups, answer: { try $0.failureGroups($1) }),
        ToolSpec(
            name: "slow_tests", description: "The slowest tests and the ones that became slower.",
            arguments: [
                "window": .integer("How many of the newest runs (default: the project's window, 30)."),
                "limit": .integer("How many tests (default 10, at most 50)."),
            ], output: ToolSchemas.slowTests, answer: { try $0.slowTests($1) }),
        ToolSpec(
            name: "trends",
            description:
                "How the suite changed per day, week or run on the default branch: runs and their failure rate, "
                + "flaky tests (newly flaky, fixed), tests added and removed, wall time, CI time lost to flakiness, "
                + "the pyramid's shares, and where each changed most.",
            arguments: [
                "by": .string("day, week (default) or run."),
                "since": .string("How far back: 90d (default), 12w, or a date such as 2026-09-01."),
                "branch": .string("The branch (default: the default branch)."),
            ], output: ToolSchemas.trends, answer: { try $0.trends($1) }),
        ToolSpec(
            name: "quarantine",
            description: "Quarantine a test (mute: it runs, its failure does not fail the build) or release it.",
            arguments: [
                "test": .string(testArgument), "action": .string("add or remove."),
                "reason": .string("Why, for the audit trail."), "mode": .string("mute (default) or skip."),
            ], required: ["test", "action", "reason"], output: ToolSchemas.quarantine, effect: .changesQuarantine,
            answer: { try $0.quarantine($1) }),
        ToolSpec(
            name: "status",
            description:
                "Where a test stands: healthy, flaky, broken, quarantined, unknown, or fix-pending, fix-landed or "
                + "regressed with its fix, and its failure rate and why.",
            arguments: ["test": .string(testArgument)], required: ["test"], output: ToolSchemas.status,
            answer: { try $0.status($1) }),
        ToolSpec(
            name: "selection",
            description:
                "Per run that selected its tests (record --select, or --observe): the failures selection missed "
                + "and the test time it saved.",
            arguments: [
                "window": .integer("How many of the newest runs that selected (default: the project's window, 30).")
            ],
            output: ToolSchemas.selection, answer: { try $0.selection($1) }),
        ToolSpec(
            name: "reproduce",
            description:
                "Run a flaky test until it fails, at most ⌈3 / p⌉ runs, on the code before a fix: reproduced on run k, "
                + "or not-reproduced with the conditions it could not create. A fix can only be proven where the "
                + "failure can be seen.",
            arguments: verificationArguments, required: ["test"], output: ToolSchemas.verification,
            effect: .runsTests, answer: { try $0.verify($1, reproducing: true) }),
        ToolSpec(
            name: "verify_fix",
            description:
                "Prove a flaky test fixed: as many passing runs as its failure rate demands (59 for p = 5 % at 95 %), "
                + "stopping at the first failure: fixed, still-flaky (with the failure and its culprit) or "
                + "inconclusive.",
            arguments: verificationArguments.merging([
                "target_rate": .number(
                    "Show it fails less often than this rate instead of less than before (0.01: 299 runs).")
            ]) { given, _ in given }, required: ["test"], output: ToolSchemas.verification,
            effect: .runsTests, answer: { try $0.verify($1, reproducing: false) }),
    ]

    /// The `test` argument, as every tool takes it.
    static let testArgument = "The test's id, or the address of its page on the dashboard."

    static let verificationArguments: [String: ToolSpec.Argument] = [
        "test": .string(testArgument),
        "rate": .number("The failure rate to rule out, above 0, at most 1 (default: the ledger's)."),
        "max_runs": .integer("The most runs (default 200, or what target_rate needs)."),
    ]

    /// The tools as `mcp --help` lists them, one line each.
    static var help: String {
        table.map { spec in
            let flag =
                switch spec.effect {
                case .reads: ""
                case .changesQuarantine: " (with --allow-quarantine)"
                case .runsTests: " (with --allow-run)"
                }
            return "  \(spec.name): \(spec.description)\(flag)"
        }.joined(separator: "\n")
    }
}
