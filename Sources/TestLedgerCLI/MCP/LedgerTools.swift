import Foundation
import LedgerCore
import LedgerDelivery
import LedgerRecording
import LedgerStore
import MCP

/// The tools `testledger mcp` offers an agent, answered from a ledger or a server: each answer is
/// JSON, bounded (the top entries, with how many more there are), and a bad argument is an MCP error.
struct LedgerTools: Sendable {
    let ledger: any AgentLedger
    /// Whether the `quarantine` tool may change the quarantine.
    let allowQuarantine: Bool
    /// What runs the tests for `reproduce` and `verify_fix`; `nil` when running is not allowed.
    var verifier: TestVerifier? = nil

    /// The most bytes of JSON an answer takes unless asked for more.
    static let answerBytes = 4_096

    /// How many entries of a list an answer holds unless asked for another number.
    static let defaultLimit = 10
    /// The most entries of a list an answer holds, whatever is asked.
    static let mostListed = 50

    /// The tools offered: those that change the quarantine or run tests only when allowed.
    var tools: [Tool] { Self.table.filter(offers).map(\.tool) }

    private func offers(_ spec: ToolSpec) -> Bool {
        switch spec.effect {
        case .reads: true
        case .changesQuarantine: allowQuarantine
        case .runsTests: verifier != nil
        }
    }

    /// Answers a call: its JSON as text, and as the structured content its output schema describes.
    /// A reading tool's answer is cut to `max_bytes` (4096 unless asked), its lists halved until it fits.
    /// - Throws: `MCPError.invalidParams` for an unknown tool, a missing or bad argument, or a
    ///   test or run the ledger does not have (or a server's refusal); `MCPError.internalError`
    ///   when a server does not answer, answers what cannot be read, or fails.
    func call(_ name: String, _ values: [String: Value]) throws -> (text: String, structured: Value) {
        var arguments = ToolArguments(values: values, tool: name)
        guard let spec = Self.table.first(where: { $0.name == name }) else {
            throw MCPError.invalidParams("no tool named \(name)")
        }
        guard offers(spec) else {
            switch spec.effect {
            case .runsTests: throw MCPError.invalidParams("\(name) runs tests only when testledger mcp has --allow-run")
            case .reads, .changesQuarantine: throw MCPError.invalidParams("no tool named \(name)")
            }
        }
        let budget = spec.effect == .reads ? try arguments.count("max_bytes") ?? Self.answerBytes : .max
        var text = try answer(spec, arguments)
        while text.utf8.count > budget, arguments.halvings < 8 {
            arguments.halvings += 1
            text = try answer(spec, arguments)
        }
        return (text, try JSONDecoder().decode(Value.self, from: Data(text.utf8)))
    }

    private func answer(_ spec: ToolSpec, _ arguments: ToolArguments) throws -> String {
        let name = spec.name
        do {
            return try spec.answer(self, arguments)
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

    func flaky(_ arguments: ToolArguments) throws -> String {
        let report = try ledger.flakyReport(
            window: try arguments.count("window"), owner: try arguments.optionalString("owner"))
        let limit = try arguments.limit()
        let listed = report.flaky.prefix(limit).map { test in
            FlakyEntry(
                test: test.test, configuration: test.configuration, score: test.score, failures: test.failures,
                runs: test.runs, strip: test.strip, quarantined: test.quarantined?.rawValue, owners: test.owners,
                culprit: test.culprit.flatMap(CulpritRendering.likely),
                fix: test.fix.map { "\($0.state.rawValue) \($0.revision.prefix(8))" })
        }
        return try Self.json(
            FlakyAnswer(
                runs: report.runs, flaky: Array(listed), more: max(0, report.flaky.count - limit),
                broken: report.broken.prefix(limit).map(\.test)))
    }

    func runSummary(_ arguments: ToolArguments) throws -> String {
        var report = try ledger.runReport(
            run: try arguments.optionalString("run"), base: try arguments.optionalString("base") ?? "main")
        let failures = report.failures.count
        report.failures = Array(report.failures.prefix(arguments.cut(20)))
        report.groups = Array(report.groups.prefix(arguments.cut(5)))
        report.fixed = Array(report.fixed.prefix(arguments.cut(20)))
        return try Self.json(
            RunAnswer(
                headline: RunReportRendering.headline(report), report: report,
                moreFailures: max(0, failures - report.failures.count)))
    }

    func testDetail(_ arguments: ToolArguments) throws -> String {
        var detail = try ledger.testDetail(
            test: try arguments.test().test, run: try arguments.run(), attempt: try arguments.count("attempt"))
        let history = try ledger.history(of: detail, limit: arguments.cut(20))
        detail.issues = Array(detail.issues.prefix(arguments.cut(10)))
        detail.captures = Array(detail.captures.prefix(arguments.cut(20)))
        detail.predicates = Array(detail.predicates.prefix(arguments.cut(20)))
        detail.activities = Array(detail.activities.prefix(arguments.cut(30)))
        detail.attachments = Array(detail.attachments.prefix(arguments.cut(10)))
        detail.culprit = nil
        return try Self.json(
            DetailAnswer(
                detail: detail,
                history: history.map {
                    HistoryEntry(
                        run: $0.run, attempts: $0.attempts.map { $0?.rawValue ?? "running" }, kind: $0.kind?.rawValue,
                        verdict: $0.verdict)
                }))
    }

    func culprit(_ arguments: ToolArguments) throws -> String {
        let report = try ledger.culpritReport(
            test: try arguments.test().test, window: try arguments.count("window"))
        var bounded = report
        bounded.suspects = Array(report.suspects.prefix(arguments.cut(5)))
        return try Self.json(Bounded(value: bounded, more: report.suspects.count - bounded.suspects.count))
    }

    func failureGroups(_ arguments: ToolArguments) throws -> String {
        let groups = try ledger.failureGroups(window: try arguments.count("window"))
        let limit = try arguments.limit()
        return try Self.json(Bounded(value: Array(groups.prefix(limit)), more: max(0, groups.count - limit)))
    }

    func slowTests(_ arguments: ToolArguments) throws -> String {
        let limit = try arguments.limit()
        var report = try ledger.slowReport(window: try arguments.count("window"), limit: limit)
        let slower = report.slowdowns.count
        report.slowdowns = Array(report.slowdowns.prefix(limit))
        return try Self.json(Bounded(value: report, more: max(0, slower - limit)))
    }

    func trends(_ arguments: ToolArguments) throws -> String {
        let by = try arguments.optionalString("by") ?? "week"
        guard let grouping = TrendsReport.Grouping(rawValue: by) else {
            throw MCPError.invalidParams("trends: by is day, week or run, not \(by)")
        }
        return try Self.json(
            try ledger.trendsReport(
                by: grouping, since: try arguments.optionalString("since") ?? "90d",
                branch: try arguments.optionalString("branch")))
    }

    func selection(_ arguments: ToolArguments) throws -> String {
        try Self.json(try ledger.selectionReport(runs: try arguments.count("window")))
    }

    func status(_ arguments: ToolArguments) throws -> String {
        try Self.json(try ledger.standing(test: try arguments.test().test))
    }

    func quarantine(_ arguments: ToolArguments) throws -> String {
        let test = try arguments.test().test
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
