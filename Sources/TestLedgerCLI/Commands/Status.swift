import ArgumentParser
import Foundation
import LedgerCore

extension TestLedgerCommand {
    /// `testledger status TEST…`: where each test stands, with an exit status to branch on.
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Say where each test stands: healthy, flaky, broken, quarantined or unknown.",
            discussion: """
                One line per test, judged over the window as `report flaky` judges it. The exit \
                status says it, for a script or an agent to branch on: 0 healthy, 10 flaky, 11 \
                broken, 12 quarantined, 13 unknown (it did not run in the window). With several \
                tests it is the one asking most attention: broken, flaky, quarantined, unknown, \
                healthy. An error exits 1, a mistyped command 64.
                """)

        @Argument(help: "The test ids, e.g. FeedTests.FeedTests/testRefresh.")
        var tests: [String]
        @OptionGroup var window: WindowOptions
        @OptionGroup var reporting: ReportOptions

        func validate() throws {
            guard !tests.isEmpty else { throw ValidationError("name at least one test") }
        }

        func run() throws {
            let (config, database) = try reporting.open()
            // An empty ledger knows no test.
            var standings = tests.map {
                TestStanding.of(
                    $0,
                    report: FlakyReport(runs: 0, flaky: [], broken: [], recovered: [], predicates: [], noiseRuns: []),
                    quarantine: [], runs: 0)
            }
            if let project = try window.project.resolved(in: database) {
                let (count, since) = (window.count(config), try window.start())
                let now = Date().timeIntervalSince1970
                let report = try database.flakyReport(
                    project: project, runs: count, since: since, thresholds: config.flaky, now: now)
                let quarantine = try database.quarantined(project: project, at: now)
                let strips = try database.outcomeStrips(project: project, tests: tests, runs: count, since: since)
                standings = tests.map { test in
                    let ran = strips[test, default: []].filter { !$0.attempts.isEmpty }
                    let failed = ran.count { ($0.attempts.last ?? nil)?.isFailure ?? true }
                    return TestStanding.of(
                        test, report: report, quarantine: quarantine, runs: ran.count, failedRuns: failed)
                }
            }
            try reporting.print(standings, table: Self.table, markdown: Self.table)
            let status = TestStanding.exitStatus(of: standings)
            if status != 0 { throw ExitCode(status) }
        }

        static func table(_ standings: [TestStanding]) -> String {
            standings.map { "\($0.test)  \($0.standing.rawValue): \($0.reason)" }.joined(separator: "\n")
        }
    }
}
