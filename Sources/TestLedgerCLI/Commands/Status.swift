import ArgumentParser
import Foundation
import LedgerCore
import LedgerRecording
import LedgerStore

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
            let project = try window.project.resolved(in: database)
            let standings = try Self.standings(
                of: tests, project: project, runs: window.count(config), since: try window.start(),
                thresholds: config.flaky, in: database
            ) {
                // The team server's quarantine when there is one, as `record` applies it.
                try QuarantineList.inForce(
                    project: $0, ledgerFile: reporting.store.filePath, local: reporting.store.open)
            }
            try reporting.print(standings, table: Self.table, markdown: Self.markdown)
            let status = TestStanding.exitStatus(of: standings)
            if status != 0 { throw ExitCode(status) }
        }

        /// Where each test stands over `project`'s newest `count` runs (since `since`), judged as
        /// `report flaky` judges them, in the quarantine `quarantine` gives for the project. An
        /// empty ledger (no project) knows no test.
        static func standings(
            of tests: [String], project: String?, runs count: Int, since: Double?, thresholds: FlakyThresholds,
            in database: any ResultStore, quarantine: (String) throws -> [QuarantinedTest]
        ) throws -> [TestStanding] {
            guard let project else {
                let empty = FlakyReport(runs: 0, flaky: [], broken: [], recovered: [], predicates: [], noiseRuns: [])
                return tests.map { TestStanding.of($0, report: empty, quarantine: [], runs: .none) }
            }
            let report = try database.flakyReport(
                project: project, runs: count, since: since, thresholds: thresholds, now: Date().timeIntervalSince1970)
            let quarantined = try quarantine(project)
            let strips = try database.outcomeStrips(project: project, tests: tests, runs: count, since: since)
            let noise = Set(report.noiseRuns.map(\.run))
            return tests.map { test in
                TestStanding.of(
                    test, report: report, quarantine: quarantined, runs: runs(strips[test] ?? [], leavingOut: noise))
            }
        }

        /// The runs a test ran in to an outcome, oldest first: noise runs, skips and attempts still
        /// running left out, as `report flaky` leaves them out.
        static func runs(_ strip: [AttemptsInRun], leavingOut noise: Set<String>) -> TestStanding.Runs {
            let finals = strip.filter { !noise.contains($0.run) }.compactMap { $0.attempts.last ?? nil }
                .filter { $0 != .skipped }
            return TestStanding.Runs(
                count: finals.count, failed: finals.count(where: \.isFailure),
                newestFailed: finals.last?.isFailure ?? false)
        }

        static func markdown(_ standings: [TestStanding]) -> String {
            standings.map { "- `\($0.test)` **\($0.standing.rawValue)**: \($0.reason)" }.joined(separator: "\n")
        }

        static func table(_ standings: [TestStanding]) -> String {
            standings.map { "\($0.test)  \($0.standing.rawValue): \($0.reason)" }.joined(separator: "\n")
        }
    }
}
