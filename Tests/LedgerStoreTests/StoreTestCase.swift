import Foundation
import GRDB
import LedgerCore
import LedgerStore
import LedgerTestSupport

/// A ledger in a fresh temporary file, for one test.
struct TemporaryLedger {
    let directory: TemporaryDirectory
    let database: LedgerDatabase
    var path: String { directory.path("ledger.sqlite") }

    init() throws {
        directory = try TemporaryDirectory()
        database = try LedgerDatabase(path: directory.path("ledger.sqlite"))
    }

    @discardableResult
    func ingest(_ records: [LedgerRecord]) throws -> IngestSummary {
        try database.ingest { sink in
            for record in records { try sink.consume(record) }
        }
    }

    func count(_ table: String) throws -> Int {
        try database.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? -1 }
    }
}
