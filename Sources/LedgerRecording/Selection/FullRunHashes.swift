import Foundation
import LedgerCore
import LedgerStore

/// A full `record` of a package stores its test targets' hashes, as `record --select` does, so that
/// the run vouches for the targets whose tests all passed and `record --select` on the next branch
/// can leave them out. They are read on a thread of their own while the tests run: the job waits
/// for them only when the tests end first.
package final class FullRunHashes: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var hashed: SelectionCheckout.Hashed?

    /// Starts reading the hashes of the package `command` tests, when the run is one that can
    /// vouch: `swift test` of every test (no `--filter` or `--skip` of its own, no shard, no
    /// selection) in a git checkout.
    /// - Returns: `nil` when the run cannot vouch.
    package static func start(
        _ command: TestCommand, options: RecordOptions, metadata: RunMetadata, config: ProjectConfiguration,
        ledger: String
    ) -> FullRunHashes? {
        guard command.runsEveryTest, !options.select, options.shard == nil else { return nil }
        let reading = FullRunHashes()
        let configuration = command.hashedConfiguration(metadata.configuration ?? "")
        let packagePath = command.packagePath
        Thread.detachNewThread {
            // A package SwiftPM cannot describe, or no checkout: the run vouches for nothing, as
            // before, and the tests' output is not cluttered with it.
            reading.hashed = try? SelectionCheckout.hashed(
                packagePath: packagePath, configuration: configuration, ignore: config.select.ignorePatterns,
                uses: config.select.uses, ledger: ledger)
            reading.done.signal()
        }
        return reading
    }

    /// Stores each test target's hash with the tests the run stored of it and those that passed;
    /// the tests the quarantine `skipped` count as not passed. Waits for the hashes first.
    package func store(run: String, skipped: [String], in database: LedgerDatabase) throws {
        done.wait()
        done.signal()
        guard let hashed else { return }
        let selection = TestSelection(graph: hashed.graph, changedFiles: [], hashes: hashed.hashes, vouches: [:])
        let events = selection.events(
            at: Date().timeIntervalSince1970, listed: Array(Set(try database.testsStored(run: run) + skipped)),
            passed: Set(try database.passedTests(run: run)), failed: Set(try database.failingTests(run: run)),
            observing: false)
        try database.ingest { sink in
            for event in events { try sink.consume(LedgerRecord(run: run, event: event)) }
        }
    }
}
