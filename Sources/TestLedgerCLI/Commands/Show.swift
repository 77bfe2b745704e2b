import ArgumentParser
import LedgerCore
import LedgerRecording

extension TestLedgerCommand {
    /// `testledger show TEST`: one test's result with everything recorded inside it.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show one test's result: failures, activities, captures and predicates.")

        @Argument(help: "The test id, e.g. DemoTests.AlertTests/testDeleteAsksFirst.")
        var test: String
        @Option(name: .customLong("run"), help: "The run (default: the newest run with the test).")
        var runID: String?
        @Option(help: "The attempt to show, 1 being the first (default: the final one).")
        var attempt: Int?

        @OptionGroup var store: StoreOptions
        @OptionGroup var output: OutputOptions

        func validate() throws {
            if let attempt, attempt < 1 { throw ValidationError("--attempt counts from 1") }
        }

        func run() throws {
            let database = try store.openForReading()
            var detail = try database.testDetail(test: test, run: runID, project: nil, attempt: attempt)
            if let project = try database.run(id: detail.run)?.project {
                detail = detail.owned(
                    by: try CheckoutOwnership.owners(of: project, config: try ProjectConfiguration.load(), in: database)
                )
                detail.culprit = try database.culpritReportIfInWindow(
                    test: test, project: project, runs: CulpritAnalysis.defaultRuns)
            }
            switch output.format {
            case .json: print(try OutputOptions.json(detail))
            case .table, .markdown: print(TestDetailRendering.text(detail))
            }
        }
    }
}
