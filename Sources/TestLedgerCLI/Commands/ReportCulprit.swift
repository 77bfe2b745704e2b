import ArgumentParser
import LedgerCore

extension TestLedgerCommand.Report {
    /// `testledger report culprit TEST`: what separates a test's failing attempts from its passing ones.
    struct Culprit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "culprit",
            abstract: "Say why a test fails: what separates its failing attempts from its passing ones.",
            discussion: """
                Compares the test's failing attempts with its passing ones over the window: steps that \
                are slower or missing before the failure, eventually checks that timed out or waited \
                near their timeout, captured values, the test that ran just before, host, \
                configuration, first try against retry and the whole duration. Where it fails is \
                reported apart, never as a suspect. A suspect needs a split chance would rarely give, \
                and at least 5 failing attempts.
                """)

        @Argument(help: "The test id, e.g. FeedTests.FeedTests/testRefresh.")
        var test: String
        @OptionGroup var window: WindowOptions
        @Option(help: "Only runs of this configuration (default: every configuration, compared).")
        var configuration: String?

        @OptionGroup var reporting: ReportOptions

        func validate() throws {
            if let runs = window.runs, runs <= 0 { throw ValidationError("--runs takes a positive number") }
        }

        func run() throws {
            let (config, database) = try reporting.open()
            let report = try database.culpritReport(
                test: test, project: window.project.name, runs: window.count(config), since: try window.start(),
                configuration: configuration)
            try reporting.print(report, table: CulpritRendering.text, markdown: CulpritRendering.markdown)
        }
    }
}
