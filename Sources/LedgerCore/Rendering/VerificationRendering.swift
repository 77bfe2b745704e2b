/// `testledger verify`'s reports in words: a paragraph each.
public enum VerificationRendering {
    /// A verification: the verdict with its runs and rate, the conditions recreated or not, and
    /// where to look at the first failure.
    public static func text(_ report: VerificationReport) -> String {
        let rate =
            "p = \(VerificationReport.percent(report.failureRate)) (\(report.rateFrom == .ledger ? "the ledger's" : "--rate"))"
        var lines: [String]
        switch report.verdict {
        case .fixed:
            lines = ["\(report.test): fixed: \(report.passed) of \(report.runsNeeded) passed — \(shown(report))"]
        case .inconclusive:
            lines = [
                "\(report.test): inconclusive: \(report.passed) runs passed of the \(report.runsNeeded) needed "
                    + "(\(rate)): \(VerificationReport.percent(report.confidenceReached)) confidence reached — "
                    + shown(report)
            ]
        case .notReproduced:
            lines = ["\(report.test): not-reproduced in \(report.runs) runs (⌈3 / p⌉, \(rate))"]
        case .stillFlaky, .reproduced:
            let word = report.verdict == .reproduced ? "reproduced on run" : "still-flaky: failed on run"
            lines = ["\(report.test): \(word) \(report.runs) of \(report.runsNeeded) (\(rate))"]
        }
        if report.brokenBefore == true, report.verdict == .fixed || report.verdict == .inconclusive {
            let target = VerificationReport.percent(report.targetRate ?? report.failureRate)
            lines.append(
                "  it failed every run before: broken, not flaky; a run that passes once is not a fix, "
                    + "\(report.runsNeeded) clean runs show it below \(target)")
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

    /// What the clean runs showed, said plainly: "at 95 % confidence it now fails less than 5.0 % of
    /// the time (it failed 25 % before)".
    static func shown(_ report: VerificationReport) -> String {
        let bound = report.remainingRateBelow ?? 1
        let before =
            report.brokenBefore == true
            ? "it failed every run before"
            : "it failed \(VerificationReport.percent(report.failureRate)) before"
                + (report.rateFrom == .flag ? ", as --rate says" : "")
        return "at \(VerificationReport.percent(report.confidence)) confidence it now fails less than "
            + "\(boundPercent(bound)) of the time (\(before))"
    }

    /// A bound as a percentage with one decimal, or two below 1 %: `5.0 %`, `0.99 %`.
    static func boundPercent(_ share: Double) -> String {
        String(format: share < 0.01 ? "%.2f %%" : "%.1f %%", share * 100)
    }

    /// `verify --isolate`: the verdict in a sentence, and where to look at the runs.
    public static func text(_ report: IsolationReport) -> String {
        "\(report.test): \(report.verdict.rawValue): \(report.sentence)\n  testledger report run \(report.run)"
    }
}

extension VerificationReport.Verdict {
    /// The exit status `verify` ends with: 0 fixed or reproduced, 10 still-flaky or
    /// not-reproduced, 11 inconclusive.
    public var exitStatus: Int32 {
        switch self {
        case .fixed, .reproduced: 0
        case .stillFlaky, .notReproduced: 10
        case .inconclusive: 11
        }
    }
}

extension IsolationReport.Verdict {
    /// The exit status `verify --isolate` ends with: 0 needs-neighbour, 10 fails-alone or
    /// not-reproduced, 11 inconclusive.
    public var exitStatus: Int32 {
        switch self {
        case .needsNeighbour: 0
        case .failsAlone, .notReproduced: 10
        case .inconclusive: 11
        }
    }
}
