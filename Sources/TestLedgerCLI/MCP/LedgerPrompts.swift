import LedgerCore
import LedgerRecording
import MCP

/// The prompts `testledger mcp` offers: the steps an agent takes, with the tools, to fix a flaky
/// test or to unblock a red run, filled in with what the ledger knows now.
struct LedgerPrompts: Sendable {
    let tools: LedgerTools

    static let list: [Prompt] = [
        Prompt(
            name: "fix_flaky_test",
            description:
                "Fix a flaky test: its standing, its culprit, the failure reproduced, the evidence to read, the fix "
                + "verified.",
            arguments: [.init(name: "test", description: "The test's id, or its dashboard address.", required: true)]),
        Prompt(
            name: "unblock_run",
            description: "Unblock a red run: which of its failures are flaky, broken or new, and what to do with each.",
            arguments: [.init(name: "run", description: "The run's id (default: the newest).", required: false)]),
    ]

    /// The prompt's messages.
    /// - Throws: `MCPError.invalidParams` for an unknown prompt or a missing argument.
    func get(_ name: String, _ arguments: [String: String]) throws -> GetPrompt.Result {
        switch name {
        case "fix_flaky_test":
            guard let test = arguments["test"].map({ TestReference($0).test }), !test.isEmpty else {
                throw MCPError.invalidParams("fix_flaky_test: the argument test is required")
            }
            return GetPrompt.Result(
                description: "Fix the flaky test \(test)", messages: [.user(.text(text: fixFlakyTest(test)))])
        case "unblock_run":
            let text = try unblockRun(arguments["run"].flatMap { $0.isEmpty ? nil : $0 })
            return GetPrompt.Result(description: "Unblock a red run", messages: [.user(.text(text: text))])
        default:
            throw MCPError.invalidParams("no prompt named \(name)")
        }
    }

    func fixFlakyTest(_ test: String) -> String {
        let standing = (try? tools.ledger.standing(test: test)).map { "\($0.standing.rawValue): \($0.reason)" }
        let culprit = (try? tools.ledger.culpritReport(test: test, window: nil)).flatMap { report in
            report.suspects.first.map { "`\($0.name)` (\($0.kind.rawValue)): \($0.evidence)" }
        }
        let running =
            tools.verifier == nil
            ? "`reproduce` and `verify_fix` are offered when `testledger mcp --allow-run` runs; without it, "
                + "ask for `testledger verify \(test) --reproduce -- swift test` and `testledger verify \(test) -- swift test`."
            : "`reproduce` and `verify_fix` run the project's tests."
        return """
            Fix the flaky test `\(test)`, and prove the fix.
            Now: \(standing ?? "the ledger could not say")
            Likely cause: \(culprit ?? "none named yet")

            1. `status` {"test": "\(test)"}: a flaky test goes on; a broken one fails every time and needs an \
            ordinary fix; an unknown one has no history here.
            2. `culprit` {"test": "\(test)"}: what separates its failing attempts from its passing ones. Start there, \
            not with a longer timeout.
            3. `reproduce` {"test": "\(test)"}: run it until it fails, on the code as it is. `not-reproduced` names \
            the conditions this machine lacks: a fix cannot be proven where the failure cannot be seen.
            4. `test_detail` {"test": "\(test)", "run": RUN, "attempt": N} of a failing attempt: its issues, the steps \
            and `eventually` checks around the culprit, what its spies captured.
            5. Change the code that the evidence points at.
            6. `verify_fix` {"test": "\(test)"}: as many passing runs as its failure rate demands. Only `fixed` is \
            proof; `still-flaky` gives the failing attempt and its culprit: back to step 4.
            \(running)
            """
    }

    func unblockRun(_ run: String?) throws -> String {
        let report = try tools.ledger.runReport(run: run, base: "main")
        let kinds: [(RunReport.Verdict, String)] = [
            (.new, "New: never failed before, most likely this change's. Fix them"),
            (.failedBefore, "Failed before: broken or unsettled already. Read their history before this change"),
            (.failingOnBase, "Failing on the base too: not this change's"),
            (.knownFlaky, "Known flaky: a retry or the quarantine, and `fix_flaky_test` later"),
            (.quarantined, "Quarantined: they cannot fail the build"),
        ]
        var lines = ["Run \(report.run): \(RunReportRendering.headline(report))"]
        for (verdict, advice) in kinds {
            let failures = report.failures.filter { $0.verdict == verdict }
            guard !failures.isEmpty else { continue }
            lines.append("\n\(advice):")
            lines += failures.prefix(20).map { "- `\($0.test)`: \($0.evidence)" }
            if failures.count > 20 { lines.append("- and \(failures.count - 20) more") }
        }
        lines.append(
            """

            Then: `test_detail` {"test": TEST, "run": "\(report.run)"} for each new failure; `culprit` {"test": TEST} \
            for each known flaky one, and `quarantine` (with --allow-quarantine) only with a reason a person can \
            check; `run_summary` {"run": "\(report.run)"} for the whole.
            """)
        return lines.joined(separator: "\n")
    }
}
