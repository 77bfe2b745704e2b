import ArgumentParser

extension TestLedgerCommand {
    /// `testledger report …`: the reports.
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report", abstract: "Report on the stored runs.",
            subcommands: [
                Run.self, Pyramid.self, Flaky.self, Failures.self, Slow.self, Culprit.self, Cost.self, Selection.self,
                Trends.self,
            ])
    }
}
