import Foundation

/// `testledger report selection` in words: a row per run that selected its tests, and what
/// selection missed and saved.
public enum SelectionRendering {
    public static func table(_ report: SelectionReport) -> String {
        guard !report.runs.isEmpty else {
            return "no run selected its tests: record with --select (or --select --observe to measure first)"
        }
        let rows = report.runs.map { run in
            [
                String(run.run.prefix(8)), run.revision.map { String($0.prefix(7)) } ?? "", run.mode.rawValue,
                "\(run.skippedTargets.count) of \(run.targets)", "\(run.missedFailures.count)",
                String(format: "%.1f of %.1f", run.savedSeconds, run.testSeconds),
            ]
        }
        let table = TextTable(
            headers: ["run", "revision", "mode", "targets left out", "missed failures", "seconds saved"],
            rows: rows, numeric: [4])
        return table.plain + "\n" + summary(report)
    }

    public static func markdown(_ report: SelectionReport) -> String {
        var lines = ["### TestLedger: selection", "", TextTable.escapeMarkdown(summary(report))]
        let missed = report.runs.filter { !$0.missedFailures.isEmpty }
        for run in missed {
            lines.append(
                "- run `\(run.run.prefix(8))`: " + run.missedFailures.map { "`\($0)`" }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    static func summary(_ report: SelectionReport) -> String {
        "\(report.runs.count) run(s): \(report.missedFailures) failure(s) missed, "
            + String(
                format: "%.1f s saved (%.0f %% of the test time)", report.savedSeconds, report.savedShare * 100)
    }
}
