import Foundation
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

@Suite struct OutcomeHistoryTests {
    /// Four runs of Shop: `A/flips` fails in the second, passes on retry in the third and is
    /// missing from the fourth; one run of Bank has a test of the same id.
    static func ledger(_ kind: StoreKind) throws -> (TemporaryStore, runs: [String]) {
        let ledger = try TemporaryStore(kind)
        var records: [LedgerRecord] = []
        var runs: [String] = []
        for index in 0..<4 {
            var script = RunScript(project: "Shop", revision: "r\(index)", at: Double(1_000 + index * 100)).start()
            script = script.pass("A/stable", duration: 0.5)
            switch index {
            case 1: script = script.fail("A/flips")
            case 2: script = script.result("A/flips", .failed).result("A/flips", .passed, attempt: 2)
            case 3: break
            default: script = script.pass("A/flips")
            }
            runs.append(script.run)
            records += script.end().records
        }
        records += RunScript(project: "Bank", at: 2_000).start().fail("A/flips").end().records
        try ledger.ingest(records)
        return (ledger, runs)
    }

    @Test(arguments: StoreKind.available) func stripsLineUpOverTheNewestRunsOldestFirst(kind: StoreKind) async throws {
        try await onOwnThread {
            let (ledger, runs) = try Self.ledger(kind)
            defer { ledger.remove() }
            let strips = try ledger.database.outcomeStrips(project: "Shop", tests: ["A/flips", "A/stable"], runs: 3)
            let flips = try #require(strips["A/flips"])
            #expect(flips.map(\.run) == Array(runs.suffix(3)))
            #expect(flips.map(\.attempts) == [[.failed], [.failed, .passed], []])
            #expect(flips.map(\.passedOnRetry) == [false, true, false])
            #expect(flips.map(\.final) == [.failed, .passed, nil])
            #expect(flips.map(\.revision) == ["r1", "r2", "r3"])
            #expect(strips["A/stable"]?.map(\.seconds) == [0.5, 0.5, 0.5])
        }
    }

    @Test(arguments: StoreKind.available) func stripsOfUnknownTestsAreEmptyCells(kind: StoreKind) async throws {
        try await onOwnThread {
            let (ledger, _) = try Self.ledger(kind)
            defer { ledger.remove() }
            let strips = try ledger.database.outcomeStrips(project: "Shop", tests: ["Nope/none"], runs: 10)
            #expect(strips["Nope/none"]?.count == 4)
            #expect(strips["Nope/none"]?.allSatisfy(\.attempts.isEmpty) == true)
            #expect(try ledger.database.outcomeStrips(project: "Nowhere", tests: ["A/flips"], runs: 10).isEmpty)
        }
    }

    @Test(arguments: StoreKind.available) func historyListsOnlyRunsWithTheTestNewestFirst(kind: StoreKind) async throws
    {
        try await onOwnThread {
            let (ledger, runs) = try Self.ledger(kind)
            defer { ledger.remove() }
            let history = try ledger.database.outcomeHistory(project: "Shop", test: "A/flips", limit: 10)
            #expect(history.map(\.run) == [runs[2], runs[1], runs[0]])
            #expect(history.map(\.attempts) == [[.failed, .passed], [.failed], [.passed]])
            #expect(history.first?.seconds == 0.02)
            let newest = try ledger.database.outcomeHistory(project: "Shop", test: "A/flips", limit: 1)
            #expect(newest.map(\.run) == [runs[2]])
            #expect(try ledger.database.outcomeHistory(project: "Bank", test: "A/flips", limit: 10).count == 1)
            #expect(try ledger.database.outcomeHistory(project: "Shop", test: "Nope/none", limit: 10).isEmpty)
        }
    }
}
