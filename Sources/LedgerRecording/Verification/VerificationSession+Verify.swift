import Foundation
import LedgerCore
import LedgerStore

extension VerificationSession {
    /// Proves each of `tests` fixed (or, `reproduce`, shows its failure) with as many runs as its
    /// failure rate demands, all in one verification run.
    /// - Returns: a report for each test, and the run.
    /// - Throws: ``RecordUsageError`` for a test with no rate known or that never ran; what storing throws.
    package func verify(_ tests: [String], options: VerificationOptions) throws -> (
        reports: [VerificationReport], run: String
    ) {
        let measured = try tests.map { try measure($0, rate: options.rate) }
        let plans = measured.map { measured in
            options.reproduce
                ? Self.reproducing(measured.rate, confidence: options.confidence, maxRuns: options.maxRuns)
                : VerificationPlan(
                    failureRate: Self.rateToRuleOut(measured, options: options), confidence: options.confidence,
                    maxRuns: options.maxRuns,
                    budget: options.budget, secondsPerRun: measured.seconds)
        }
        if options.stress > 0 { printError("testledger: verify: \(options.stress) busy threads run beside the tests") }
        let runBeside = Self.besideConditions(measured, alone: options.alone).subtracting(tests).sorted()
        let runBefore = Set(measured.flatMap(\.conditions.runsBefore)).subtracting(tests).sorted()
        let busy = BusyThreads(count: options.stress)
        defer { busy.stop() }
        let (run, outcome) = try self.run { run in
            try run.command.verifyingRunner(
                tests, runBefore: runBefore, runBeside: runBeside, run: run.id, metadata: metadata,
                environment: run.environment, databasePath: ledgerFile, folder: run.folder
            )
            .verify(
                runs: plans.map(\.runsAllowed).max() ?? 1, deadline: options.budget.map { run.started + $0 },
                in: database)
        }
        let reports = try zip(measured, plans).map { measured, plan in
            try report(
                measured, plan: plan, passes: outcome.passes[measured.test] ?? [], run: run.id,
                seconds: Date().timeIntervalSince1970 - run.started, options: options)
        }
        try label(run, verdicts: Dictionary(reports.map { ($0.test, $0.verdict.rawValue) }) { first, _ in first })
        return (reports, run.id)
    }

    /// The rate the runs must show the test below: `--target-rate`'s, else the test's own, except
    /// for a test that failed every run, which one pass would prove "fixed" against a rate of 1.
    static func rateToRuleOut(_ measured: MeasuredTest, options: VerificationOptions) -> Double {
        options.targetRate ?? (measured.rate >= 1 ? VerificationPlan.brokenTargetRate : measured.rate)
    }

    /// The plan of `--reproduce`: ⌈3 / p⌉ runs, within `maxRuns`.
    static func reproducing(_ rate: Double, confidence: Double, maxRuns: Int) -> VerificationPlan {
        var plan = VerificationPlan(failureRate: rate, confidence: confidence)
        plan.runsNeeded = VerificationPlan.reproductionRuns(failureRate: rate)
        plan.runsAllowed = min(plan.runsNeeded, maxRuns)
        return plan
    }

    /// The tests to run beside the verified ones, said on standard error: those that ran with a
    /// test that fails only beside others, unless `alone`, which is warned about.
    static func besideConditions(_ measured: [MeasuredTest], alone: Bool) -> Set<String> {
        var beside: Set<String> = []
        for measured in measured where !measured.conditions.runsBeside.isEmpty {
            let names = measured.conditions.runsBeside
            if alone {
                printError(
                    "testledger: verify: warning: \(measured.test) fails only beside other tests, and runs alone "
                        + "(--alone): it may pass whether it is fixed or not")
            } else {
                printError(
                    "testledger: verify: \(measured.test) fails only beside other tests: it runs beside the "
                        + "\(names.count) that ran with it when it failed (\(names.prefix(3).joined(separator: ", "))"
                        + (names.count > 3 ? ", …" : "") + "); --alone runs it alone")
                beside.formUnion(names)
            }
        }
        return beside
    }

    /// One test's report from its results in the runs.
    private func report(
        _ measured: MeasuredTest, plan: VerificationPlan, passes: [Bool], run: String, seconds: Double,
        options: VerificationOptions
    ) throws -> VerificationReport {
        let judged = VerificationReport.judge(passes, plan: plan, reproducing: options.reproduce)
        var firstFailure: VerificationReport.FirstFailure?
        if judged.failed > 0 {
            let detail = try? database.testDetail(test: measured.test, run: run, project: nil, attempt: judged.runs)
            firstFailure = .init(
                run: run, attempt: judged.runs, message: detail?.issues.first?.message,
                culprit: measured.culprit?.suspect == nil ? nil : measured.culprit)
        }
        var report = VerificationReport(
            test: measured.test, configuration: measured.configuration, failureRate: measured.rate,
            rateFrom: measured.rateFrom, confidence: options.confidence,
            confidenceReached: VerificationPlan.confidenceReached(failureRate: measured.rate, runs: judged.passed),
            runsNeeded: plan.runsNeeded, runs: judged.runs, passed: judged.passed, failed: judged.failed,
            verdict: judged.verdict, firstFailure: firstFailure, seconds: seconds)
        report.runsBefore = measured.conditions.runsBefore
        report.runsBeside = options.alone ? [] : measured.conditions.runsBeside
        report.missingConditions = measured.conditions.missing
        if !options.reproduce, judged.failed == 0 {
            report.remainingRateBelow = VerificationPlan.remainingRateBound(
                runs: judged.passed, confidence: options.confidence)
        }
        report.targetRate = options.reproduce || plan.failureRate == measured.rate ? nil : plan.failureRate
        report.brokenBefore = measured.rate >= 1 ? true : nil
        return report
    }
}
