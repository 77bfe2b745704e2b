import ArgumentParser
import LedgerCore
import LedgerRecording

/// The runs a report over recent history reads: `--runs`, `--since`, `--project`.
struct WindowOptions: ParsableArguments {
    @Option(help: "How many recent runs make the window (default: .testledger.yml's window, else 30).")
    var runs: Int?
    @Option(help: "Only runs since then (14d, 12h, 2026-11-01).")
    var since: String?
    @OptionGroup var project: ProjectOption

    /// How many runs: `--runs`, else `.testledger.yml`'s window, else 30.
    func count(_ config: ProjectConfiguration) -> Int { runs ?? config.reportWindow }

    /// `--since` as seconds since 1970.
    func start() throws -> Double? { try since.map { try TimeWindow.start($0) } }
}
