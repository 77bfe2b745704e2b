import Foundation
import LedgerCore
import LedgerPostgres
import LedgerStore
import LedgerTestSupport
import Testing

/// The stores a report or store test runs against: SQLite always; PostgreSQL when a server is
/// reachable (`TESTLEDGER_TEST_DATABASE_URL`, which CI sets).
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgresql

    static var available: [StoreKind] { TestPostgres.available ? allCases : [.sqlite] }

    var testDescription: String { rawValue }
}

/// A fresh, empty ledger of either kind, for one test: a temporary SQLite file, or a schema of its
/// own on the test server. Its methods block: use it on a thread of its own (`onOwnThread`).
struct TemporaryStore {
    let database: any ResultStore
    private let remover: () -> Void

    init(_ kind: StoreKind) throws {
        switch kind {
        case .sqlite:
            let directory = try TemporaryDirectory()
            database = try LedgerDatabase(path: directory.path("ledger.sqlite"))
            remover = { directory.remove() }
        case .postgresql:
            let url = try #require(TestPostgres.freshURL())
            database = try PostgresLedger(location: PostgresLocation(url: url), maximumConnections: 4)
            remover = { TestPostgres.drop(url) }
        }
    }

    func remove() { remover() }

    @discardableResult
    func ingest(_ records: [LedgerRecord]) throws -> IngestSummary {
        try database.ingest { sink in
            for record in records { try sink.consume(record) }
        }
    }

    /// Ingests each event-stream file (a generated history's), one transaction each.
    func ingest(streams files: [String]) throws {
        for (index, file) in files.enumerated() {
            var decoder = EventStreamDecoder(source: "run\(index).jsonl")
            var records: [LedgerRecord] = []
            for (number, line) in file.split(separator: "\n").enumerated() {
                if let record = try decoder.decode(line: Data(line.utf8), number: number + 1) { records.append(record) }
            }
            try ingest(records)
        }
    }
}
