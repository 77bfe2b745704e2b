import Foundation
import LedgerCore
import LedgerStore
import PostgresNIO

extension PostgresLedger {
    @discardableResult
    public func recordFix(_ fix: RecordedFix) throws -> RecordedFix {
        let body = try StoredFix.body(of: fix)
        return try transaction { session in
            let rows = try session.rows(
                """
                INSERT INTO fix (project, test, state, body) VALUES (\(fix.project), \(fix.test),
                    \(fix.state.rawValue), \(body))
                RETURNING id
                """)
            var stored = fix
            stored.id = try rows.first?.decode(Int64.self)
            return stored
        }
    }

    public func fixes(project: String) throws -> [RecordedFix] {
        try withConnection { session in
            try session.rows(
                """
                SELECT id, body FROM fix
                WHERE id IN (SELECT max(id) FROM fix WHERE project = \(project) GROUP BY test) ORDER BY test COLLATE "C"
                """
            ).map { row in
                let (id, body) = try row.decode((Int64, String).self)
                return try StoredFix.fix(id: id, body: body)
            }
        }
    }

    public func updateFixes(_ fixes: [RecordedFix]) throws {
        guard !fixes.isEmpty else { return }
        try transaction { session in
            for fix in fixes {
                guard let id = fix.id else { continue }
                let body = try StoredFix.body(of: fix)
                try session.run("UPDATE fix SET state = \(fix.state.rawValue), body = \(body) WHERE id = \(id)")
            }
        }
    }
}
