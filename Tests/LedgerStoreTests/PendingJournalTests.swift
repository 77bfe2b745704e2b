import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

@testable import LedgerStore

/// What a crashed recorder left in its journal is stored by the next one to open the store.
@Suite struct PendingJournalTests {
    func journal(_ ledger: TemporaryLedger, pid: Int32, _ script: RunScript, cutShort: String = "") throws -> URL {
        try journal(ledger, pid: pid, run: script.run, script.ndjson + cutShort)
    }

    func journal(_ ledger: TemporaryLedger, pid: Int32, run: String, _ text: String) throws -> URL {
        let url = PendingJournals.journal(forDatabase: ledger.path, run: run, pid: pid)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func aDeadProcessesJournalIsStoredAndRemovedEvenWithATornLastLine() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        let script = RunScript().start().pass("A/a").with(.testStart(.init(at: 5, test: "A/crashed")))
        let url = try journal(ledger, pid: Int32.max - 1, script, cutShort: #"{"v":1,"type":"test.e"#)
        #expect(ledger.database.recoverPendingJournals(databasePath: ledger.path) == 1)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        let run = try #require(try ledger.database.runs().first)
        #expect(run.passed == 1)
        #expect(run.crashed == 1, "the test that never ended")
        #expect(run.status == .interrupted)
        #expect(try ledger.database.testDetail(test: "A/crashed", run: nil).outcome == .ended(.crashed))
        #expect(try ledger.database.testDetail(test: "A/crashed", run: nil).attempts == [.ended(.crashed)])
        let strip = try ledger.database.outcomeStrips(project: "Demo", tests: ["A/crashed"], runs: 1)
        #expect(strip["A/crashed"]?.first?.final == .crashed)
        #expect(
            try ledger.database.outcomeHistory(project: "Demo", test: "A/crashed", limit: 1).first?.final == .crashed)
    }

    @Test func aDeadWorkersUnendedTestStaysRunningWhileAnotherWorkerOfItsRunGoesOn() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        let script = RunScript().start().with(.testStart(.init(at: 5, test: "A/unfinished")))
        _ = try journal(ledger, pid: Int32.max - 1, script)
        let alive = try journal(ledger, pid: getpid(), run: script.run, RunScript(run: script.run).start().ndjson)
        #expect(ledger.database.recoverPendingJournals(databasePath: ledger.path) == 1)
        #expect(try ledger.database.runs().first?.status == .interrupted, "no end yet")
        #expect(try ledger.database.testDetail(test: "A/unfinished", run: nil).outcome == .running)

        try FileManager.default.removeItem(at: alive)
        try ledger.ingest(RunScript(run: script.run).end().records)
        #expect(try ledger.database.testDetail(test: "A/unfinished", run: nil).outcome == .ended(.crashed))
    }

    @Test func aJournalThatEndedItsRunLeavesTheRunsOutcomeAlone() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        _ = try journal(ledger, pid: Int32.max - 1, RunScript().start().pass("A/a").end())
        #expect(ledger.database.recoverPendingJournals(databasePath: ledger.path) == 1)
        #expect(try ledger.database.runs().first?.status == .finished)
    }

    @Test func aLiveProcessesJournalIsLeftToIt() throws {
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        let url = try journal(ledger, pid: getpid(), RunScript().start().pass("A/a"))
        #expect(ledger.database.recoverPendingJournals(databasePath: ledger.path) == 0)
        #expect(FileManager.default.fileExists(atPath: url.path))
        #expect(try ledger.database.runs().isEmpty)
    }

    /// A writer that died but was never reaped (a container's init that reaps nothing) is dead.
    @Test func aZombieWritersJournalIsStored() throws {
        var pid: pid_t = 0
        let arguments = ["/bin/true"]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        #expect(posix_spawn(&pid, "/bin/true", nil, nil, argv, environ) == 0)
        // Not waited for yet: once it has exited, it is a zombie until waitpid.
        var waited = 0
        while !PendingJournals.isZombie(pid), waited < 500 {
            usleep(10_000)
            waited += 1
        }
        defer {
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        #expect(kill(pid, 0) == 0, "a zombie still answers kill(0)")
        let ledger = try TemporaryLedger()
        defer { ledger.directory.remove() }
        let url = try journal(ledger, pid: pid, RunScript().start().pass("A/a"))
        #expect(ledger.database.recoverPendingJournals(databasePath: ledger.path) == 1)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(try ledger.database.runs().first?.status == .interrupted)
    }

}
