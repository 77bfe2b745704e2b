import Foundation
import GRDB
import LedgerCore

extension LedgerDatabase {
    /// Keeps a project's ownership, replacing what was kept before.
    ///
    /// - Returns: whether it differed from what was kept.
    /// - Throws: any SQLite error.
    @discardableResult
    public func storeOwnership(_ ownership: Ownership, project: String, at time: Double) throws -> Bool {
        let document = String(decoding: try Self.ownershipEncoder.encode(ownership), as: UTF8.self)
        return try writer.write { db in
            let kept = try String.fetchOne(
                db, sql: "SELECT document FROM ownership WHERE project = ?", arguments: [project])
            guard kept != document else { return false }
            try db.execute(
                sql: """
                    INSERT INTO ownership (project, document, updatedAt) VALUES (?, ?, ?)
                    ON CONFLICT (project) DO UPDATE SET document = excluded.document, updatedAt = excluded.updatedAt
                    """, arguments: [project, document, time])
            return true
        }
    }

    /// A project's kept ownership; `nil` when none was ever stored.
    /// - Throws: any SQLite error.
    public func ownership(project: String) throws -> Ownership? {
        try writer.read { db in
            try String.fetchOne(db, sql: "SELECT document FROM ownership WHERE project = ?", arguments: [project])
        }.flatMap { try? JSONDecoder().decode(Ownership.self, from: Data($0.utf8)) }
    }

    /// The owners of a project's tests.
    ///
    /// - Parameters:
    ///   - project: the project.
    ///   - ownership: the rules to apply; the project's kept ones when `nil`.
    /// - Returns: the resolver; ``TestOwners/none`` when there are no rules.
    /// - Throws: any SQLite error.
    public func testOwners(project: String, ownership: Ownership? = nil) throws -> TestOwners {
        guard let ownership = try ownership ?? self.ownership(project: project), !ownership.isEmpty else {
            return .none
        }
        let files = try writer.read { db in
            try Row.fetchAll(
                db, sql: "SELECT key, file FROM test WHERE project = ? AND file IS NOT NULL", arguments: [project])
        }
        return TestOwners(
            ownership, files: Dictionary(files.map { ($0["key"], $0["file"]) }, uniquingKeysWith: { first, _ in first })
        )
    }

    package static let ownershipEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()
}
