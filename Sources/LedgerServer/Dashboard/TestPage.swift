import LedgerCore
import LedgerStore

/// `/projects/{project}/tests/{test id}`: one run's result of a test (the newest by default)
/// with its failures, activities, captures and predicates, and the test's recent history.
enum TestPage {
    static func render(
        project: String, detail: TestDetail, history: [AttemptsInRun], culprit: CulpritReport? = nil,
        fix: RecordedFix? = nil, longHistory: [AttemptsInRun] = []
    ) -> HTML {
        let place = Figures.place(detail.file, detail.line)
        let attempts =
            detail.attempts.count > 1
            ? " · attempts: \(detail.attempts.map(\.description).joined(separator: ", "))" : ""
        let sections: [HTML] = [
            "<h1>\(detail.test)\(Layout.owners(detail.owners))</h1>",
            """
            <p>\(badge(detail.outcome)) in \(detail.duration.map(Figures.seconds) ?? "–")\(attempts) · \
            run <a href="\(DashboardPath.run(detail.run, project: project))">\(Layout.runCode(detail.run))</a> at \(detail.startedAt)\
            \(detail.layer.map { " · layer \($0.rawValue)" } ?? "")</p>
            """,
            place.map { "<p class=\"muted\">at <code>\($0)</code></p>" } ?? "",
            self.history(history, shown: detail.run, test: detail.test, project: project),
            fix.map(Self.fix) ?? "",
            TestTrendChart.render(longHistory, fix: fix),
            culprit.map(CulpritSection.render) ?? "",
            TestEvidence.failures(detail.issues),
            TestEvidence.activities(detail.activities),
            TestEvidence.captures(detail.captures, in: detail),
            TestEvidence.predicates(detail.predicates, in: detail),
            TestEvidence.attachments(detail.attachments, in: detail),
        ]
        return Layout.page(
            detail.test,
            crumbs: [.init(title: project, href: DashboardPath.project(project)), .init(title: detail.test)],
            HTML(sections))
    }

    /// The test's newest fix: what its verification showed and where it is on the default branch.
    static func fix(_ fix: RecordedFix) -> HTML {
        let evidence = fix.evidence
        let branch: HTML = fix.branch.map { " (\($0))" } ?? ""
        let state: String =
            switch fix.state {
            case .pending: "not yet on the default branch"
            case .landed: "on the default branch: \(fix.cleanRuns) of \(fix.runsToRelease) clean runs"
            case .released: "held for \(fix.cleanRuns) clean runs on the default branch and was released"
            case .regressed:
                "failed on the default branch after it landed"
                    + (fix.regressedRevision.map { ", on \($0.prefix(8))" } ?? "")
            }
        return """
            <p class="fix"><span class="badge">\(fix.state.rawValue)</span> Fix verified on \
            <code>\(String(fix.revision.prefix(8)))</code>\(branch): \(evidence.runs) clean runs showed it failing \
            less than \(VerificationReport.percent(evidence.remainingRateBelow)) of the time (it failed \
            \(VerificationReport.percent(evidence.failureRateBefore)) before); \(state).</p>
            """
    }

    static func badge(_ state: AttemptState) -> HTML {
        let tone = state.outcome?.isFailure == true ? "bad" : state.outcome?.isPass == true ? "good" : ""
        return "<span class=\"badge \(tone)\">\(state.description)</span>"
    }

    /// The strip (oldest first) and a table (newest first) of the runs that have the test.
    static func history(_ history: [AttemptsInRun], shown: String, test: String, project: String) -> HTML {
        guard !history.isEmpty else { return "" }
        let rows = history.map { cell -> HTML in
            let (letter, _, words) = OutcomeStrip.look(cell)
            var run: HTML =
                cell.run == shown
                ? "<strong>\(Layout.runCode(cell.run))</strong> (shown)"
                : "<a href=\"\(DashboardPath.test(test, project: project, run: cell.run))\">\(Layout.runCode(cell.run))</a>"
            if let kind = cell.kind {
                run = "\(run) · <strong>\(kind.rawValue)\(cell.verdict.map { ": \($0)" } ?? "")</strong>"
            }
            return """
                <tr><td>\(run)</td><td>\(iso8601(cell.startedAt))</td><td>\(cell.revision ?? "")</td>\
                <td>\(cell.configuration)</td><td>\(letter) \(words)</td>\
                <td>\(cell.attempts.map { $0?.rawValue ?? "running" }.joined(separator: ", "))</td>\
                <td class="n">\(Figures.seconds(cell.seconds))</td></tr>
                """
        }
        return """
            <h2>History: \(history.count) recent run(s)</h2>
            <p>\(OutcomeStrip.render(history.reversed(), test: test, project: project))</p>
            \(DurationChart.render(history.reversed()))
            <table class="history"><thead><tr><th>run</th><th>started</th><th>revision</th><th>configuration</th>\
            <th>outcome</th><th>attempts</th><th class="n">time</th></tr></thead>
            <tbody>\(rows)</tbody></table>
            """
    }
}
