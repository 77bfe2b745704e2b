import LedgerCore

/// A read transaction of either store, for what is composed of small queries written once: each
/// query's SQL in the store's ``SQLDialect``, each row's columns read by the names it gives them.
package protocol StoreReader {
    var dialect: SQLDialect { get }

    /// The rows `sql` returns, its parameters numbered from 1 in the order of `arguments`.
    /// - Parameters:
    ///   - sql: the query, written with ``SQLDialect/parameter(_:)`` and ``SQLDialect/parameter(_:as:)``.
    ///   - arguments: the parameters' values.
    /// - Returns: each row, its columns by name.
    /// - Throws: what the database throws.
    func rows(_ sql: String, _ arguments: [StoreArgument]) throws -> [any NamedColumns]
}

/// A store that lends a read transaction as a ``StoreReader``: both stores do.
package protocol ReadsThroughStoreReader {
    /// Runs `body` in a read transaction of the store.
    /// - Parameter body: the queries, through the store's reader.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` or the store throws.
    func withReader<Value: Sendable>(_ body: (any StoreReader) throws -> Value) throws -> Value
}

/// A query's parameter.
package enum StoreArgument {
    case text(String?)
    case integer(Int64?)
    /// A list, matched with ``SQLDialect/inList(_:_:)``.
    case integers([Int64])
}

/// A row's columns by the names the query gives them: a column named `startedAt` is read as
/// `startedAt` from SQLite and as `startedat` from PostgreSQL, which folds unquoted names.
package protocol NamedColumns {
    func int64(_ column: String) throws -> Int64?
    func double(_ column: String) throws -> Double?
    func string(_ column: String) throws -> String?
}

/// A column a query did not return, or a `NULL` where the schema allows none.
package struct UnreadableColumn: Error, CustomStringConvertible {
    package let column: String

    package init(_ column: String) { self.column = column }

    package var description: String { "the store's answer has no value for the column \(column)" }
}

extension NamedColumns {
    package func int(_ column: String) throws -> Int? { try int64(column).map { Int($0) } }

    /// The column's value, which the schema says is never `NULL`.
    /// - Throws: ``UnreadableColumn`` when it is.
    package func required<Value>(_ read: (String) throws -> Value?, _ column: String) throws -> Value {
        guard let value = try read(column) else { throw UnreadableColumn(column) }
        return value
    }
}

extension SQLDialect {
    /// The `number`th parameter where its type cannot be inferred (`$2::text IS NULL`): PostgreSQL
    /// needs the type, SQLite has none to give.
    package func parameter(_ number: Int, as type: String) -> String {
        self == .sqlite ? parameter(number) : "\(parameter(number))::\(type)"
    }

    /// `column` is one of the list that is the `number`th parameter (``StoreArgument/integers(_:)``):
    /// SQLite reads the list as a JSON array, PostgreSQL as an array.
    package func inList(_ column: String, _ number: Int) -> String {
        self == .sqlite
            ? "\(column) IN (SELECT value FROM json_each(\(parameter(number))))"
            : "\(column) = ANY(\(parameter(number)))"
    }

    /// `left` and `right` are equal, or both `NULL`.
    package func same(_ left: String, _ right: String) -> String {
        self == .sqlite ? "\(left) IS \(right)" : "\(left) IS NOT DISTINCT FROM \(right)"
    }

    /// An attempt's outcome as reports show it: still running while its run goes on, crashed once
    /// the run is over.
    package func attemptOutcome(result: String, run: String) -> String {
        "coalesce(\(result).outcome, CASE WHEN \(run).endedAt IS NOT NULL THEN 'crashed' END)"
    }
}
