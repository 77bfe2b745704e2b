import Foundation
import LedgerCore
import LedgerDelivery
import LedgerStore
import MCP

/// The tools `testledger mcp` offers an agent, answered from a ledger or a server: each answer is
/// JSON, bounded (the top entries, with how many more there are), and a bad argument is an MCP error.
struct LedgerTools: Sendable {
    let ledger: any AgentLedger
    /// Whether the `quarantine` tool may change the quarantine.
    let allowQuarantine: Bool

    /// How many entries of a list an answer holds unless asked for another number.
    static let defaultLimit = 10
    /// The most entries of a list an answer holds, whatever is asked.
    static let mostListed = 50

    var tools: [Tool] {
        var tools = [
            Self.tool(
                "flaky_tests",
                "The flaky tests, the flakiest first, with their failure rate, outcome strip and likely culprit.",
                [
                    "window": .integer("How many of the newest runs to judge (default 30)."),
                    "owner": .string("Only this owner's tests (@team)."),
                    "limit": .integer("How many tests to list (default 10, at most 50)."),
                ]),
            Self.tool(
                "run_summary", "What each failure of a run means: new, known flaky, failing on the base too…",
                [
                    "run": .string("The run's id (default: the newest)."),
                    "base": .string("The base branch (default main)."),
                ]),
            Self.tool(
                "test_detail",
                "One test in a run: its attempts, activities, captures, predicates, issues, and its recent history.",
                [
                    "test": .string("The test's id."), "run": .string("The run's id (default: its newest)."),
                    "attempt": .integer("Which attempt, 1 being the first (default: the final one)."),
                ],
                required: ["test"]),
            Self.tool(
                "culprit", "Why a flaky test fails: what separates its failing attempts from its passing ones.",
                ["test": .string("The test's id."), "window": .integer("Runs to compare (default 60).")],
                required: ["test"]),
            Self.tool(
                "failure_groups", "Failures grouped by cause across recent runs, the largest first.",
                [
                    "window": .integer("How many of the newest runs (default 30)."),
                    "limit": .integer("How many groups (default 10, at most 50)."),
                ]),
            Self.tool(
                "slow_tests", "The slowest tests and the ones that became slower.",
                [
                    "window": .integer("How many of the newest runs (default 30)."),
                    "limit": .integer("How many tests (default 10, at most 50)."),
                ]),
        ]
        if allowQuarantine {
            tools.append(
                Self.tool(
                    "quarantine",
                    "Quarantine a test (mute: it runs, its failure does not fail the build) or release it.",
                    [
                        "test": .string("The test's id."), "action": .string("add or remove."),
                        "reason": .string("Why, for the audit trail."), "mode": .string("mute (default) or skip."),
                    ],
                    required: ["test", "action", "reason"]))
        }
        return tools
    }

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

    static func tool(_ name: String, _ description: String, _ arguments: [String: Argument], required: [String] = [])
        -> Tool
    {
        Tool(
            name: name, description: description,
            inputSchema: .object([
                "type": "object", "properties": .object(arguments.mapValues(\.schema)),
                "required": .array(required.map { .string($0) }), "additionalProperties": false,
            ]))
    }

    /// Answers a call, as JSON text.
    /// - Throws: `MCPError.invalidParams` for an unknown tool, a missing or bad argument, or a
    ///   test or run the ledger does not have (or a server's refusal); `MCPError.internalError`
    ///   when a server does not answer, answers what cannot be read, or fails.
    func call(_ name: String, _ arguments: [String: Value]) throws -> String {
        let arguments = ToolArguments(values: arguments, tool: name)
        do {
            switch name {
            case "flaky_tests": return try flaky(arguments)
            case "run_summary": return try runSummary(arguments)
            case "test_detail": return try testDetail(arguments)
            case "culprit":
                let report = try ledger.culpritReport(
                    test: try arguments.string("test"), window: try arguments.count("window") ?? 60)
                var bounded = report
                bounded.suspects = Array(report.suspects.prefix(5))
                return try Self.json(Bounded(value: bounded, more: max(0, report.suspects.count - 5)))
            case "failure_groups":
                let groups = try ledger.failureGroups(window: try arguments.count("window"))
                let limit = try arguments.limit()
                return try Self.json(Bounded(value: Array(groups.prefix(limit)), more: max(0, groups.count - limit)))
            case "slow_tests":
                let limit = try arguments.limit()
                var report = try ledger.slowReport(window: try arguments.count("window"), limit: limit)
                let slower = report.slowdowns.count
                report.slowdowns = Array(report.slowdowns.prefix(limit))
                return try Self.json(Bounded(value: report, more: max(0, slower - limit)))
            case "quarantine" where allowQuarantine: return try quarantine(arguments)
            default: throw MCPError.invalidParams("no tool named \(name)")
            }
        } catch let error as StoreError {
            throw MCPError.invalidParams("\(name): \(error)")
        } catch let error as LedgerInputError {
            throw MCPError.invalidParams("\(name): \(error.description)")
        } catch let error as ServerReadError {
            // The server's refusal (an unknown test, a token of too little scope) is the caller's to
            // mend; no answer, an unreadable one or the server's own failure is not.
            switch error.status {
            case .some(400..<500): throw MCPError.invalidParams("\(name): the server refused: \(error.message)")
            case .some: throw MCPError.internalError("\(name): the server failed: \(error.message)")
            case nil: throw MCPError.internalError("\(name): the server could not be read: \(error.message)")
            }
        }
    }

    private func flaky(_ arguments: ToolArguments) throws -> String {
        let report = try ledger.flakyReport(
            window: try arguments.count("window"), owner: try arguments.optionalString("owner"))
        let limit = try arguments.limit()
        let listed = report.flaky.prefix(limit).map { test in
            FlakyEntry(
                test: test.test, configuration: test.configuration, score: test.score, failures: test.failures,
                runs: test.runs, strip: test.strip, quarantined: test.quarantined?.rawValue, owners: test.owners,
                culprit: test.culprit.flatMap(CulpritRendering.likely))
        }
        return try Self.json(
            FlakyAnswer(
                runs: report.runs, flaky: Array(listed), more: max(0, report.flaky.count - limit),
                broken: report.broken.prefix(limit).map(\.test)))
    }

    private func runSummary(_ arguments: ToolArguments) throws -> String {
        var report = try ledger.runReport(
            run: try arguments.optionalString("run"), base: try arguments.optionalString("base") ?? "main")
        let failures = report.failures.count
        report.failures = Array(report.failures.prefix(20))
        report.groups = Array(report.groups.prefix(5))
        report.fixed = Array(report.fixed.prefix(20))
        return try Self.json(
            RunAnswer(
                headline: RunReportRendering.headline(report), report: report, moreFailures: max(0, failures - 20)))
    }

    private func testDetail(_ arguments: ToolArguments) throws -> String {
        var detail = try ledger.testDetail(
            test: try arguments.string("test"), run: try arguments.optionalString("run"),
            attempt: try arguments.count("attempt"))
        let history = try ledger.history(of: detail, limit: 20)
        detail.issues = Array(detail.issues.prefix(10))
        detail.captures = Array(detail.captures.prefix(20))
        detail.predicates = Array(detail.predicates.prefix(20))
        detail.activities = Array(detail.activities.prefix(30))
        detail.attachments = Array(detail.attachments.prefix(10))
        detail.culprit = nil
        return try Self.json(
            DetailAnswer(
                detail: detail,
                history: history.map {
                    HistoryEntry(run: $0.run, attempts: $0.attempts.map { $0?.rawValue ?? "running" })
                }))
    }

    private func quarantine(_ arguments: ToolArguments) throws -> String {
        let test = try arguments.string("test")
        let reason = try arguments.string("reason")
        let changes: [QuarantineChange]
        switch try arguments.string("action") {
        case "add":
            guard let mode = QuarantineMode(rawValue: try arguments.optionalString("mode") ?? "mute") else {
                throw MCPError.invalidParams("quarantine: mode is mute or skip")
            }
            changes = try ledger.quarantine(test: test, mode: mode, reason: reason)
        case "remove":
            changes = try ledger.release(test: test, reason: reason)
        default:
            throw MCPError.invalidParams("quarantine: action is add or remove")
        }
        return try Self.json(["changed": changes.map { "\($0.action.rawValue) \($0.test)" }])
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
