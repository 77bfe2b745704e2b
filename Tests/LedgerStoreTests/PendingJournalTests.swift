import Foundation
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

/// What a crashed recorder left in its journal is stored by the next one to open the store.
@Suite struct PendingJournalTests {
    func journal(_ ledger: TemporaryLedger, pid: Int32, _ text: String) throws -> URL {
        let url = PendingJournals.journal(forDatabase: ledger.path, run: UUID().uuidString.lowercased(), pid: pid)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func aDeadProcessesJournalIsStoredAndRemovedEvenWithATornLastLine() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        let script = RunScript().start().pass("A/a").with(.testStart(.init(at: 5, test: "A/crashed")))
        let url = try journal(ledger, pid: Int32.max - 1, script.ndjson + #"{"v":1,"type":"test.e"#)
        #expect(ledger.database.recoverPendingJournals(databasePath: ledger.path) == 1)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        let run = try #require(try ledger.database.runs().first)
        #expect(run.passed == 1)
        #expect(run.crashed == 1, "the test that never ended")
        #expect(run.status == "interrupted")
    }

    @Test func aLiveProcessesJournalIsLeftToIt() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        let url = try journal(ledger, pid: getpid(), RunScript().start().pass("A/a").ndjson)
        #expect(ledger.database.recoverPendingJournals(databasePath: ledger.path) == 0)
        #expect(FileManager.default.fileExists(atPath: url.path))
        #expect(try ledger.database.runs().isEmpty)
    }
}
