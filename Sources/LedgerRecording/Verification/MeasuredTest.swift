import Foundation
import LedgerCore
import LedgerStore

/// What the ledger says of a test before it is verified.
package struct MeasuredTest {
    package var test: String
    package var rate: Double
    package var rateFrom: VerificationReport.RateSource
    package var configuration: String
    /// What one run of it takes, from its recent runs, when known.
    package var seconds: Double?
    package var culprit: CulpritReport.Brief?
    /// The failures' conditions, as this run can recreate them.
    package var conditions = VerificationConditions(culprit: nil, host: nil, configuration: nil)
}

extension VerificationSession {
    /// The culprit report the verification reads: over the configured window (as `report culprit`
    /// reads it), in this run's configuration when the test ran there, else in every one.
    package func culpritReport(of test: String) -> CulpritReport? {
        let configuration = metadata.configuration.flatMap { $0.isEmpty ? nil : $0 }
        if let configuration,
            let report = try? database.culpritReport(
                test: test, project: metadata.project, runs: config.reportWindow, since: nil,
                configuration: configuration)
        {
            return report
        }
        return try? database.culpritReport(
            test: test, project: metadata.project, runs: config.reportWindow, since: nil)
    }

    /// The test's failure rate: `rate`, else its failing attempts' share over the window (in this
    /// run's configuration when it ran there), with its culprit and its usual time.
    /// - Throws: ``RecordUsageError`` when no rate is given and the ledger knows no failure.
    package func measure(_ test: String, rate: Double?) throws -> MeasuredTest {
        let culprit = culpritReport(of: test)
        let strip = try database.outcomeStrips(project: metadata.project, tests: [test], runs: config.reportWindow)
        let seconds = strip[test, default: []].filter { !$0.attempts.isEmpty }.map(\.seconds)
        var measured = MeasuredTest(
            test: test, rate: rate ?? 0, rateFrom: .flag, configuration: culprit?.configuration ?? "",
            seconds: seconds.isEmpty ? nil : Statistics.median(seconds), culprit: culprit?.brief,
            conditions: VerificationConditions(
                culprit: culprit?.brief, host: metadata.host, configuration: metadata.configuration,
                failsOnlyBeside: culprit?.failsOnlyBeside))
        if rate != nil { return measured }
        guard let culprit, culprit.failingAttempts > 0 else {
            throw RecordUsageError(
                "\(test): no failure rate is known (no failing attempt in the ledger's newest \(config.reportWindow) "
                    + "runs of \(metadata.project)): pass --rate, e.g. --rate 0.05 for one failure in 20")
        }
        measured.rate = Double(culprit.failingAttempts) / Double(culprit.failingAttempts + culprit.passingAttempts)
        measured.rateFrom = .ledger
        return measured
    }
}
