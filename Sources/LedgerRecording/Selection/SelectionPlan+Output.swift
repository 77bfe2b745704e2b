import LedgerCore

extension SelectionPlan {
    /// `select`'s list: what changed, then each test target run or skipped and why.
    package var listing: String {
        var lines = [
            "Since \(checkout.mergeBase.map { String($0.prefix(7)) } ?? "?") on \(base): "
                + "\(selection.changedFiles.count) file(s) changed"
        ]
        if let everything = selection.everything {
            lines.append("Every test runs: \(everything)")
            return (lines + ["Test targets: " + selection.targets.map(\.target).joined(separator: ", ")])
                .joined(separator: "\n")
        }
        let rows = selection.targets.map { [$0.runs ? "run" : "skip", $0.target, $0.reason] }
        lines.append(TextTable(headers: ["", "test target", "why"], rows: rows).plain)
        for kept in selection.alwaysRun { lines.append("run \(kept.test): \(kept.reason)") }
        return lines.joined(separator: "\n")
    }

    /// `select --format json`.
    package var output: Output { Output(self) }

    /// What `select --format json` prints.
    package struct Output: Encodable {
        let base: String
        let mergeBase: String?
        let changedFiles: [String]
        let everything: String?
        let targets: [TestSelection.Target]
        let alwaysRun: [TestSelection.KeptTest]

        init(_ plan: SelectionPlan) {
            base = plan.base
            mergeBase = plan.checkout.mergeBase
            changedFiles = plan.selection.changedFiles
            everything = plan.selection.everything
            targets = plan.selection.targets
            alwaysRun = plan.selection.alwaysRun
        }
    }
}
