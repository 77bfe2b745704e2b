import GRDB

/// A read transaction of the SQLite store, for what is composed once for both stores.
struct SQLiteReader: StoreReader {
    let db: Database

    var dialect: SQLDialect { .sqlite }

    func rows(_ sql: String, _ arguments: [StoreArgument]) throws -> [any NamedColumns] {
        let values: [(any DatabaseValueConvertible)?] = arguments.map {
            switch $0 {
            case .text(let text): text
            case .integer(let number): number
            case .integers(let list): LedgerDatabase.jsonArray(list)
            }
        }
        return try Row.fetchAll(try db.cachedStatement(sql: sql), arguments: StatementArguments(values))
    }
}

extension Row: NamedColumns {
    // GRDB finds a column whatever its case, as SQLite does.
    package func int64(_ column: String) throws -> Int64? { try checked(column) }
    package func double(_ column: String) throws -> Double? { try checked(column) }
    package func string(_ column: String) throws -> String? { try checked(column) }

    private func checked<Value: DatabaseValueConvertible>(_ column: String) throws -> Value? {
        guard hasColumn(column) else { throw UnreadableColumn(column) }
        return self[column]
    }
}
