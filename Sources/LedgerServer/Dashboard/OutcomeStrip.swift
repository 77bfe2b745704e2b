import LedgerCore
import LedgerStore

/// A test's outcomes over recent runs, oldest first, one coloured cell per run: P passed,
/// R passed on retry, F failed, S skipped, · not run. Each cell links to that run's detail.
enum OutcomeStrip {
    static func render(_ cells: [AttemptsInRun], test: String, project: String) -> HTML {
        let rendered = cells.map { cell -> HTML in
            let (letter, tone, words) = look(cell)
            let title =
                "\(words) · run \(Layout.shortRun(cell.run)) · \(iso8601(cell.startedAt))"
                + (cell.revision.map { " · \($0)" } ?? "")
            guard !cell.attempts.isEmpty else {
                return "<span class=\"cell\" title=\"\(title)\">\(letter)</span>"
            }
            let href = DashboardPath.test(test, project: project, run: cell.run)
            return "<a class=\"cell \(tone)\" href=\"\(href)\" title=\"\(title)\">\(letter)</a>"
        }
        return "<span class=\"strip\" aria-label=\"outcomes, oldest first\">\(rendered)</span>"
    }

    /// The cell's letter, its colour class and its outcome in words.
    static func look(_ cell: AttemptsInRun) -> (String, String, String) {
        guard !cell.attempts.isEmpty else { return ("·", "", "not run") }
        guard let final = cell.final else { return ("…", "", "running") }
        if cell.passedOnRetry { return ("R", "r", "passed on attempt \(cell.attempts.count)") }
        if final.isFailure { return ("F", "f", final.rawValue) }
        if final.isPass { return ("P", "p", final.rawValue) }
        return ("S", "", final.rawValue)
    }
}
