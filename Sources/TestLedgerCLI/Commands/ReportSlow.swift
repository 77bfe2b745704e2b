import ArgumentParser
import Foundation
import LedgerCore
import LedgerRecording

extension TestLedgerCommand.Report {
    /// `testledger report slow`: the slowest tests and those that slowed down.
    struct Slow: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "slow",
            abstract: "List the slowest tests and those whose median duration grew against the runs before.",
            discussion: """
                Durations are those of runs where the test passed with no failed attempt; noise runs \
                are left out. A test slowed down when its median over the window grew by more than \
                --growth and by at least --min-change against the same number of runs before.
                """)

        @OptionGroup var window: WindowOptions
        @OptionGroup var owners: OwnerOptions
        @Option(help: "The growth of the median that counts as slower: 20% or 0.2.")
        var growth = "20%"
        @Option(name: .customLong("min-change"), help: "The least growth that counts, in seconds.")
        var minimumChange = 0.05
        @Option(help: "How many of the slowest tests to list.")
        var limit = 20
        @Flag(help: "Exit 1 when any test slowed down: a CI gate.")
        var failOnSlower = false

        @OptionGroup var reporting: ReportOptions

        func validate() throws {
            guard share(growth) != nil else { throw ValidationError("--growth takes a share: 20% or 0.2") }
            guard minimumChange >= 0, limit >= 0 else {
                throw ValidationError("--min-change and --limit are not negative")
            }
        }

        func run() throws {
            let (config, database) = try reporting.open()
            var report = try database.slowReport(
                project: window.project.name, runs: window.count(config), since: try window.start(),
                thresholds: config.flaky,
                criteria: SlowReport.Criteria(growth: share(growth) ?? 0.2, minimumChange: minimumChange),
                limit: owners.owner == nil ? limit : Int.max)
            if let project = try window.project.resolved(in: database) {
                report = owners.scope(
                    report, owners: try CheckoutOwnership.owners(of: project, config: config, in: database))
                if owners.owner != nil { report.slowest = Array(report.slowest.prefix(limit)) }
            }
            try reporting.print(report, table: SlowRendering.table, markdown: SlowRendering.markdown)
            if failOnSlower, !report.slowdowns.isEmpty { throw ExitCode(1) }
        }

        private func share(_ text: String) -> Double? {
            let value = text.hasSuffix("%") ? Double(text.dropLast()).map { $0 / 100 } : Double(text)
            return value.flatMap { $0 >= 0 ? $0 : nil }
        }
    }
}
