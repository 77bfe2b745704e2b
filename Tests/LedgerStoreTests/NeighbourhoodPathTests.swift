import Foundation
import GRDB
import LedgerCore
import LedgerTestSupport
import Testing

@testable import LedgerStore

/// A run's summary says whether any two of its attempts ran at once, and the culprit report reads
/// a run whole only when some did: on a serial history and a parallel one, the summaries' flags are
/// what the attempts' times say, and the report is the same when every run is read whole (a flag
/// of 1) or the flag is not known (a summary stored before it was kept).
@Suite struct NeighbourhoodPathTests {
    func flags(_ ledger: TemporaryLedger) throws -> [Int?] {
        try ledger.database.writer.read { db in
            try Int?.fetchAll(db, sql: "SELECT concurrent FROM run_summary ORDER BY runId")
        }
    }

    /// Each run's flag by comparing every pair of its attempts in SQL, by the summary's tolerance.
    func pairwiseFlags(_ ledger: TemporaryLedger) throws -> [Int?] {
        try ledger.database.writer.read { db in
            try Int?.fetchAll(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM result a JOIN result b ON a.runId = b.runId AND a.id < b.id
                        WHERE a.runId = run.id
                            AND a.startedAt < coalesce(b.startedAt + b.duration, 1e300) - \(ConcurrentSpans.tolerance)
                            AND b.startedAt < coalesce(a.startedAt + a.duration, 1e300) - \(ConcurrentSpans.tolerance))
                    FROM run ORDER BY id
                    """)
        }
    }

    func reports(_ ledger: TemporaryLedger, _ tests: [String], project: String) throws -> [CulpritReport] {
        try tests.map { try ledger.database.culpritReport(test: $0, project: project, runs: 60, since: nil) }
    }

    func expectEveryPathAgrees(_ ledger: TemporaryLedger, _ tests: [String], project: String) throws {
        let summarised = try reports(ledger, tests, project: project)
        let clusters = try ledger.database.failureClusters(project: project, runs: 60, since: nil)
        for flag in ["1", "NULL"] {
            // A summary from before the flag has no load either: the clusters read it from the results.
            let load = flag == "NULL" ? ", load = NULL" : ""
            try ledger.database.writer.write { db in
                try db.execute(sql: "UPDATE run_summary SET concurrent = \(flag)\(load)")
            }
            #expect(try reports(ledger, tests, project: project) == summarised, "concurrent = \(flag)")
            #expect(
                try ledger.database.failureClusters(project: project, runs: 60, since: nil) == clusters,
                "concurrent = \(flag)")
        }
    }

    @Test func aSerialHistoryIsAnsweredFromItsSummaries() async throws {
        try await onOwnThread {
            let ledger = try TemporaryLedger()
            defer { ledger.directory.remove() }
            let history = CulpritQueryTests.history
            for file in history.files() { try ledger.ingest(EventStreamDecoder.records(file)) }
            #expect(try flags(ledger) == Array(repeating: 0, count: 40))
            #expect(try pairwiseFlags(ledger) == flags(ledger))
            let tests = history.tests.map(\.id)
            let reports = try reports(ledger, tests, project: "Feed")
            #expect(reports.contains { $0.suspects.first?.kind == .precedingTest })
            try expectEveryPathAgrees(ledger, tests, project: "Feed")
        }
    }

    @Test func aParallelHistoryReadsTheRunsWhereTestsRanAtOnce() async throws {
        try await onOwnThread {
            let ledger = try TemporaryLedger()
            defer { ledger.directory.remove() }
            let history = ParallelCulpritQueryTests.history
            for file in history.files() { try ledger.ingest(EventStreamDecoder.records(file)) }
            #expect(try flags(ledger).contains(1))
            #expect(try pairwiseFlags(ledger) == flags(ledger))
            try expectEveryPathAgrees(ledger, history.tests.map(\.id), project: "Cart")
        }
    }
}

extension EventStreamDecoder {
    /// The records of an event-stream file's text.
    static func records(_ text: String) throws -> [LedgerRecord] {
        var decoder = EventStreamDecoder(source: "run.jsonl")
        var records: [LedgerRecord] = []
        for (number, line) in text.split(separator: "\n").enumerated() {
            if let record = try decoder.decode(line: Data(line.utf8), number: number + 1) { records.append(record) }
        }
        return records
    }
}
