import Foundation
import GRDB
import LedgerCore

extension LedgerDatabase {
    @discardableResult
    public func recordFix(_ fix: RecordedFix) throws -> RecordedFix {
        try writer.write { db in
            try db.execute(
                sql: "INSERT INTO fix (project, test, state, body) VALUES (?, ?, ?, ?)",
                arguments: [fix.project, fix.test, fix.state.rawValue, try StoredFix.body(of: fix)])
            var stored = fix
            stored.id = db.lastInsertedRowID
            return stored
        }
    }

    public func fixes(project: String) throws -> [RecordedFix] {
        try writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT id, body FROM fix
                    WHERE id IN (SELECT max(id) FROM fix WHERE project = ? GROUP BY test) ORDER BY test
                    """, arguments: [project]
            ).map { try StoredFix.fix(id: $0["id"], body: $0["body"]) }
        }
    }

    public func updateFixes(_ fixes: [RecordedFix]) throws {
        guard !fixes.isEmpty else { return }
        try writer.write { db in
            for fix in fixes {
                guard let id = fix.id else { continue }
                try db.execute(
                    sql: "UPDATE fix SET state = ?, body = ? WHERE id = ?",
                    arguments: [fix.state.rawValue, try StoredFix.body(of: fix), id])
            }
        }
    }
}
