import Foundation
import LedgerCore
import LedgerDelivery
import LedgerStore

extension RecordSession {
    /// Says what happened and decides the exit: what could not be stored, the summary, what each
    /// failure means (on GitHub Actions also on the pull request), the trace; then the job's
    /// status, and with `strict` a failure for what the network calls could not reach.
    func explain(
        _ plan: RecordPlan, in database: LedgerDatabase, outcome: RecordOutcome, settled: RecordOutcome.Settled
    ) throws -> Int32 {
        for failure in outcome.failures { printError("testledger: \(failure)") }
        let newlyFlaky = try RecordSummary.flakyTests(database, project: plan.metadata.project, config: config)
            .filter { !plan.flakyBefore.contains($0.test) }
        print(
            try RecordSummary.text(
                database, run: plan.runID, project: plan.metadata.project, config: config,
                newFlaky: newlyFlaky.map(\.test), mutedFailures: settled.mutedFailures,
                forgiven: settled.status != outcome.status && !settled.failedForRetries, retries: outcome.retried,
                repeats: outcome.repeated, failedForRetries: settled.failedForRetries))
        let failsTheJob = settled.failedForRetries || outcome.repeated?.failsTheJob == true
        let report = try explainFailures(
            run: plan.runID, in: database, network: plan.network,
            jobFailed: settled.status != 0 || failsTheJob || !outcome.failures.isEmpty)
        exportTrace(run: plan.runID, from: database, network: plan.network)
        notify(
            settled.notifications
                + TestNotification.becameFlaky(newlyFlaky, before: plan.flakyBefore, project: plan.metadata.project)
                + (!config.notify.isEmpty && isDefaultBranch ? report.map(TestNotification.brokenOnDefault) ?? [] : []),
            project: plan.metadata.project, in: database, network: plan.network)
        if settled.status != 0 { return settled.status }
        if failsTheJob || !outcome.failures.isEmpty { return 1 }
        let unreached = plan.network.failures
        if options.strict || config.strict == true, !unreached.isEmpty {
            printError(
                "testledger: --strict: the job fails, as \(unreached.count) network call(s) failed: "
                    + unreached.joined(separator: "; "))
            return 1
        }
        return 0
    }

    /// Sends the run to `--otlp-endpoint`; a collector that is down is said, never the job's failure.
    private func exportTrace(run: String, from database: any ResultStore, network: NetworkBudget) {
        guard
            let otlpEndpoint = options.otlpEndpoint,
            let exporter = TraceExporter(address: otlpEndpoint, environment: ProcessInfo.processInfo.environment)
        else { return }
        do {
            let (request, _) = try database.traces(run: run)
            if let problem = exporter.send(request, budget: network) {
                network.unreached("the trace was not sent: \(problem)")
                printError("testledger: the trace was not sent: \(problem)")
            }
        } catch {
            printError("testledger: the trace could not be read from the ledger: \(error)")
        }
    }

    /// Prints what each failure means and, on GitHub Actions, marks the failures on their lines,
    /// writes the report to the job's summary and, when asked, to the pull request and a check run.
    /// - Returns: the run's report; `nil` when the run stored no results.
    @discardableResult
    private func explainFailures(run: String, in database: any ResultStore, network: NetworkBudget, jobFailed: Bool)
        throws -> RunReport?
    {
        guard try database.windowRun(id: run) != nil else { return nil }
        let report = try database.runReport(
            run: run, project: metadata.project, base: options.baseBranch, config: config)
        if !report.failures.isEmpty || !report.fixed.isEmpty { print(RunReportRendering.table(report)) }
        let job = GitHubJob(environment: ProcessInfo.processInfo.environment)
        let dashboard = LedgerEnvironment().serverURL
        var untold: String?
        if job.isActions {
            let annotations = GitHubFeedback.annotations(report, job: job)
            annotations.lines.forEach { print($0) }
            untold = annotations.untold
        }
        if let path = job.value("GITHUB_STEP_SUMMARY") {
            let markdown =
                RunReportRendering.markdown(report, dashboard: dashboard) + (untold.map { "\n\n_\($0)._" } ?? "")
                + "\n"
            if let file = FileHandle(forWritingAtPath: path) {
                file.seekToEndOfFile()
                file.write(Data(markdown.utf8))
                file.closeFile()
            } else {
                try markdown.write(toFile: path, atomically: true, encoding: .utf8)
            }
        }
        var feedback = GitHubFeedback(job: job, dashboard: dashboard, jobFailed: jobFailed)
        feedback.budget = network
        if options.githubComment { feedback.comment(report) }
        if options.checkRun { feedback.checkRun(report) }
        return report
    }
}
