import ArgumentParser
import LedgerCore
import LedgerRecording
import LedgerStore

extension TestLedgerCommand {
    /// `testledger show TEST`: one test's result with everything recorded inside it.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show one test's result: failures, activities, captures and predicates.",
            discussion: """
                A failed attempt that ran beside other tests is followed by its timeline: its steps and, \
                for each test that ran beside it, the steps that test ran meanwhile, in seconds from \
                the attempt's start.
                """)

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
            if let project = try database.project(ofRun: detail.run) {
                let config = try ProjectConfiguration.load()
                detail = detail.owned(by: try CheckoutOwnership.owners(of: project, config: config, in: database))
                detail.culprit = try database.culpritReportIfInWindow(
                    test: test, project: project, runs: config.reportWindow)
            }
            switch output.format {
            case .json: print(try OutputOptions.json(detail))
            case .table, .markdown:
                print(TestDetailRendering.text(detail))
                if let timeline = try Self.besideTimeline(detail, in: database) {
                    print("\n" + TimelineRendering.text(timeline))
                }
            }
        }

        /// What ran beside the shown attempt, when it failed beside other tests, with every
        /// one's steps.
        static func besideTimeline(_ detail: TestDetail, in database: any ResultStore) throws -> AttemptTimeline? {
            guard detail.outcome.outcome?.isFailure ?? true else { return nil }
            let number = detail.attempt ?? detail.attempts.count
            guard
                let timeline = AttemptTimeline.of(
                    detail.test, attempt: number, in: try database.attempts(run: detail.run))
            else { return nil }
            return timeline.withSteps(try database.steps(run: detail.run, tests: timeline.tests))
        }
    }
}
