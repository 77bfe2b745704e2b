import LedgerStore
import PostgresNIO

/// A read transaction of the PostgreSQL store, for what is composed once for both stores.
struct PostgresReader: StoreReader {
    let session: PostgresSession

    var dialect: SQLDialect { .postgresql }

    func rows(_ sql: String, _ arguments: [StoreArgument]) throws -> [any NamedColumns] {
        var binds = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            switch argument {
            case .text(let text?): binds.append(text)
            case .integer(let number?): binds.append(number)
            case .integers(let list): binds.append(list)
            case .text(nil), .integer(nil): binds.appendNull()
            }
        }
        return try session.rows(PostgresQuery(unsafeSQL: sql, binds: binds)).map {
            PostgresNamedRow(row: $0.makeRandomAccess())
        }
    }
}

/// A row's columns by name: PostgreSQL folds unquoted names to lower case.
private struct PostgresNamedRow: NamedColumns {
    let row: PostgresRandomAccessRow

    func int64(_ column: String) throws -> Int64? { try cell(column).decode(Int64?.self) }
    func double(_ column: String) throws -> Double? { try cell(column).decode(Double?.self) }
    func string(_ column: String) throws -> String? { try cell(column).decode(String?.self) }

    private func cell(_ column: String) throws -> PostgresCell {
        let name = column.lowercased()
        // The row's subscript stops the process on a name it does not have.
        guard row.contains(name) else { throw UnreadableColumn(column) }
        return row[name]
    }
}
