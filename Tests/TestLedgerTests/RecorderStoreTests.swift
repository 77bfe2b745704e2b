import Foundation
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

@testable import TestLedger

/// The library storing its own journal into a SQLite file, as it does when the tests exit.
@Suite struct RecorderStoreTests {
    @Test func storingTheJournalFlagsTheResultsOfMutedTests() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("ledger.sqlite")
        try LedgerDatabase(path: path).quarantine([
            QuarantinedTest(project: "Demo", test: "A/muted", mode: .mute, reason: "flaky", by: "ana", since: 100),
            QuarantinedTest(
                project: "Demo", test: "A/elsewhere", configuration: "iOS 17", mode: .mute, reason: "flaky", by: "ana",
                since: 100),
        ])
        let run = UUID().uuidString.lowercased()
        let store = RecorderStore(
            environment: LedgerEnvironment(["TESTLEDGER_DB": path, "TESTLEDGER_RUN": run, "TESTLEDGER_PROJECT": "Demo"])
        )
        let script = RunScript(run: run, project: "Demo").start().fail("A/muted").fail("A/elsewhere").fail("A/other")
        store.write(running: false, script.records.dropFirst().map(\.event))
        store.endRun(at: script.clock)
        store.finish()

        let stored = try #require(try LedgerDatabase(path: path).run(id: run))
        #expect(stored.project == "Demo" && stored.failed == 3)
        #expect(stored.muted == 1, "only A/muted: A/elsewhere is muted on iOS 17, which this run is not")
    }

    @Test func storingTheJournalClosesTheLedgerWithNoLogLeft() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("ledger.sqlite")
        // Another connection stays open, as another test process's may: SQLite folds the log by
        // itself only when the last connection closes, so here only the recorder's close does.
        let other = try LedgerDatabase(path: path)
        defer { try? other.close() }
        let run = UUID().uuidString.lowercased()
        let store = RecorderStore(
            environment: LedgerEnvironment(["TESTLEDGER_DB": path, "TESTLEDGER_RUN": run, "TESTLEDGER_PROJECT": "Demo"])
        )
        var script = RunScript(run: run, project: "Demo").start()
        for test in 0..<50 { script = script.pass("A/test\(test)") }
        store.write(running: false, script.records.dropFirst().map(\.event))
        store.endRun(at: script.clock)
        store.finish()

        let log = try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
        #expect((log ?? 0) == 0, "the write-ahead log is folded into the ledger when the recorder closes it")
        #expect(try other.run(id: run)?.passed == 50)
    }
}
