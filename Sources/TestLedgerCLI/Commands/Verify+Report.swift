import ArgumentParser
import Foundation
import LedgerCore
import LedgerRecording
import LedgerStore

extension TestLedgerCommand.Verify {
    /// What the ledger says of a test before it is verified.
    struct Measured {
        var test: String
        var rate: Double
        var rateFrom: VerificationReport.RateSource
        var configuration: String
        /// What one run of it takes, from its recent runs, when known.
        var seconds: Double?
        var culprit: CulpritReport.Brief?
        /// The failures' conditions, as this run can recreate them.
        var conditions = VerificationConditions(culprit: nil, host: nil, configuration: nil)
    }

    /// The test's failure rate: `--rate`, else its failing attempts' share over the window (in
    /// this run's configuration when it ran there), with its culprit and its usual time.
    func failureRate(of test: String, metadata: RunMetadata, config: ProjectConfiguration, in database: LedgerDatabase)
        throws -> Measured
    {
        let configuration = metadata.configuration.flatMap { $0.isEmpty ? nil : $0 }
        var culprit = try? database.culpritReport(
            test: test, project: metadata.project, runs: config.reportWindow, since: nil, configuration: configuration)
        if culprit == nil, configuration != nil {
            culprit = try? database.culpritReport(
                test: test, project: metadata.project, runs: config.reportWindow, since: nil)
        }
        let strip = try database.outcomeStrips(project: metadata.project, tests: [test], runs: config.reportWindow)
        let seconds = strip[test, default: []].filter { !$0.attempts.isEmpty }.map(\.seconds)
        var measured = Measured(
            test: test, rate: rate ?? 0, rateFrom: .flag, configuration: culprit?.configuration ?? "",
            seconds: seconds.isEmpty ? nil : Statistics.median(seconds), culprit: culprit?.brief,
            conditions: VerificationConditions(
                culprit: culprit?.brief, host: metadata.host, configuration: metadata.configuration,
                failsOnlyBeside: culprit?.failsOnlyBeside))
        if rate != nil { return measured }
        guard let culprit, culprit.failingAttempts > 0 else {
            throw ValidationError(
                "\(test): no failure rate is known (no failing attempt in the ledger's newest \(config.reportWindow) "
                    + "runs of \(metadata.project)): pass --rate, e.g. --rate 0.05 for one failure in 20")
        }
        measured.rate = Double(culprit.failingAttempts) / Double(culprit.failingAttempts + culprit.passingAttempts)
        measured.rateFrom = .ledger
        return measured
    }

    /// The plan of `--reproduce`: ⌈3 / p⌉ runs, within `--max-runs`.
    static func reproducing(_ rate: Double, confidence: Double, maxRuns: Int) -> VerificationPlan {
        var plan = VerificationPlan(failureRate: rate, confidence: confidence)
        plan.runsNeeded = VerificationPlan.reproductionRuns(failureRate: rate)
        plan.runsAllowed = min(plan.runsNeeded, maxRuns)
        return plan
    }

    /// One test's report from its results in the runs.
    func report(
        _ measured: Measured, plan: VerificationPlan, passes: [Bool], run: String, seconds: Double,
        in database: LedgerDatabase
    ) throws -> VerificationReport {
        let judged = VerificationReport.judge(passes, plan: plan, reproducing: reproduce)
        var firstFailure: VerificationReport.FirstFailure?
        if judged.failed > 0 {
            let detail = try? database.testDetail(test: measured.test, run: run, project: nil, attempt: judged.runs)
            firstFailure = .init(
                run: run, attempt: judged.runs, message: detail?.issues.first?.message,
                culprit: measured.culprit?.suspect == nil ? nil : measured.culprit)
        }
        var report = VerificationReport(
            test: measured.test, configuration: measured.configuration, failureRate: measured.rate,
            rateFrom: measured.rateFrom, confidence: confidence,
            confidenceReached: VerificationPlan.confidenceReached(failureRate: measured.rate, runs: judged.passed),
            runsNeeded: plan.runsNeeded, runs: judged.runs, passed: judged.passed, failed: judged.failed,
            verdict: judged.verdict, firstFailure: firstFailure, seconds: seconds)
        report.runsBefore = measured.conditions.runsBefore
        report.runsBeside = alone ? [] : measured.conditions.runsBeside
        report.missingConditions = measured.conditions.missing
        return report
    }

    /// The reports: JSON (one object for one test, else an array), or a paragraph each.
    func print(_ reports: [VerificationReport]) throws {
        if let jsonFile {
            let json = try reports.count == 1 ? OutputOptions.json(reports[0]) : OutputOptions.json(reports)
            try Data(json.utf8).write(to: URL(fileURLWithPath: jsonFile), options: .atomic)
        }
        switch output.format {
        case .json:
            Swift.print(try reports.count == 1 ? OutputOptions.json(reports[0]) : OutputOptions.json(reports))
        case .table, .markdown:
            Swift.print(reports.map(Self.text).joined(separator: "\n\n"))
        }
    }

    static func text(_ report: VerificationReport) -> String {
        let rate =
            "p = \(VerificationReport.percent(report.failureRate)) (\(report.rateFrom == .ledger ? "the ledger's" : "--rate"))"
        var lines: [String]
        switch report.verdict {
        case .fixed:
            lines = [
                "\(report.test): fixed: \(report.passed) of \(report.runsNeeded) runs passed; \(rate), "
                    + "\(VerificationReport.percent(report.confidence)) confidence"
            ]
        case .inconclusive:
            lines = [
                "\(report.test): inconclusive: \(report.passed) runs passed of the \(report.runsNeeded) needed "
                    + "(\(rate)): \(VerificationReport.percent(report.confidenceReached)) confidence reached"
            ]
        case .notReproduced:
            lines = ["\(report.test): not-reproduced in \(report.runs) runs (⌈3 / p⌉, \(rate))"]
        case .stillFlaky, .reproduced:
            let word = report.verdict == .reproduced ? "reproduced on run" : "still-flaky: failed on run"
            lines = ["\(report.test): \(word) \(report.runs) of \(report.runsNeeded) (\(rate))"]
        }
        for test in report.runsBefore ?? [] {
            lines.append("  ran \(test) in its process each time, in the runner's order: its failures followed it")
        }
        if let beside = report.runsBeside, !beside.isEmpty {
            lines.append(
                "  ran beside the \(beside.count) test(s) that ran with it when it failed, side by side as the "
                    + "runner schedules them: it fails only beside other tests")
        }
        for missing in report.missingConditions ?? [] { lines.append("  not recreated: \(missing)") }
        if let failure = report.firstFailure {
            if let message = failure.message { lines.append("  \(message)") }
            if let suspect = failure.culprit?.suspect {
                lines.append("  likely cause: `\(suspect.name)` (\(suspect.kind.rawValue)): \(suspect.evidence)")
            }
            let test = CommandWords.quoted(report.test)
            lines.append("  testledger show \(test) --run \(failure.run) --attempt \(failure.attempt)")
        }
        return lines.joined(separator: "\n")
    }

    static func exitStatus(_ verdict: VerificationReport.Verdict) -> Int32 {
        switch verdict {
        case .fixed, .reproduced: 0
        case .stillFlaky, .notReproduced: 10
        case .inconclusive: 11
        }
    }
}
