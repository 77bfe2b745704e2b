import ArgumentParser
import LedgerCore
import LedgerRecording

/// What `github comment` and `gitlab note` share: the run, `--if-failed`, the project and the ledger.
struct CommentOptions: ParsableArguments {
    @Argument(help: "The run (default: the newest).")
    var runID: String?
    @Flag(help: "Post only when something failed; a passing run turns an earlier comment into one line.")
    var ifFailed = false
    @OptionGroup var project: ProjectOption
    @OptionGroup var store: StoreOptions

    /// The run's report against `base`.
    func report(base: String) throws -> RunReport {
        try store.open().runReport(
            run: runID, project: project.name, base: base, config: try ProjectConfiguration.load())
    }
}
