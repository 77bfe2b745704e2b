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
            abstract: "Say where each test stands: healthy, flaky, broken, quarantined, unknown, or its fix's state.",
            discussion: """
                One line per test, judged over the window as `report flaky` judges it. The exit \
                status says it, for a script or an agent to branch on: 0 healthy, 10 flaky, 11 \
                broken, 12 quarantined, 13 unknown (it did not run in the window), 14 fix-pending \
                (verify proved a fix on a revision the default branch has not run), 15 fix-landed \
                (the default branch runs it, not yet for the clean runs that release it), 16 \
                regressed (it failed on the default branch after its fix landed). With several \
                tests it is the one asking most attention: regressed, broken, flaky, quarantined \
                or a fix under way, unknown, healthy. An error exits 1, a mistyped command 64.
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
            // The team server's quarantine when there is one, as `record` applies it.
            let standings = try database.standings(
                of: tests, project: try window.project.resolved(in: database), runs: window.count(config),
                since: try window.start(), thresholds: config.flaky, now: Date().timeIntervalSince1970
            ) {
                try QuarantineList.inForce(
                    project: $0, ledgerFile: reporting.store.filePath, local: reporting.store.openForReading)
            }
            try reporting.print(standings, table: StatusRendering.table, markdown: StatusRendering.markdown)
            let status = TestStanding.exitStatus(of: standings)
            if status != 0 { throw ExitCode(status) }
        }
    }
}
