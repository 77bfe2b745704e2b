/// A row of a table the ingest writes: the one description of the table's stored columns.
///
/// The columns are listed once, in order, each with how its value is read from the row and how
/// a new value merges with a stored one. Every statement and bulk format that writes the table
/// is derived from that list: SQLite's statements and multi-row inserts, PostgreSQL's statements,
/// the arrays it inserts from and its `COPY` rows.
package protocol StoredRow {
    /// The table, as the migrations name it.
    static var table: String { get }
    /// The columns a write gives, in the order statements list them.
    static var columns: [StoredColumn<Self>] { get }
    /// The table's columns that no write of this row gives (besides the row id): set by other
    /// statements, their defaults until then.
    static var columnsSetElsewhere: [String] { get }
}

extension StoredRow {
    package static var columnsSetElsewhere: [String] { [] }
}

/// One column of a ``StoredRow``: its name, its type, how to read it and how it merges.
package struct StoredColumn<Row>: Sendable {
    /// The column's name, as the migrations spell it.
    package let name: String
    /// What the column holds.
    package let type: StoredValue.Kind
    /// Whether the row can leave the column `NULL`.
    package let isOptional: Bool
    /// How a value written over a stored row merges with the stored value.
    package let merge: StoredMerge
    /// The column's value in a row.
    package let value: @Sendable (Row) -> StoredValue
    /// Binds the column's value in a row to a SQLite statement's next parameter: the ingest's
    /// hot path, with no ``StoredValue`` in between.
    let bind: @Sendable (Row, inout FastStatement) -> Void

    /// A column read by `value`, its type and whether it may be `NULL` taken from what `value` returns.
    /// - Parameters:
    ///   - name: The column's name.
    ///   - merge: How a new value merges with a stored one; ``StoredMerge/keep`` by default.
    ///   - value: Reads the column's value from a row.
    package init<Value: StoredValueConvertible>(
        _ name: String, _ merge: StoredMerge = .keep, _ value: @escaping @Sendable (Row) -> Value
    ) {
        self.name = name
        self.type = Value.storedKind
        self.isOptional = Value.isOptional
        self.merge = merge
        self.value = { value($0).storedValue }
        self.bind = { row, statement in value(row).bind(to: &statement) }
    }
}

/// How a value written over a stored row (an upsert's conflict, an update) merges with the value
/// stored.
package enum StoredMerge: Sendable, Equatable {
    /// Left as first stored.
    case keep
    /// Names the row: the conflict target of an upsert, the `WHERE` of an update.
    case key
    /// The stored value, or the new one while none is stored.
    case keepGiven
    /// The new value, or the stored one when the new is `NULL`.
    case takeGiven
    /// The new value, else the stored one, else `fallback` (an SQL literal).
    case takeGivenOr(_ fallback: String)
    /// The new value.
    case replace
    /// The smaller of the two.
    case earliest
    /// The larger of the two, the new one when none is stored.
    case latest
    /// The new value while the stored one is empty text.
    case fillEmpty
}

/// A stored value, as both databases take it: a 64-bit integer, a double, text or `NULL`.
package enum StoredValue: Sendable, Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null

    /// What a column holds.
    package enum Kind: Sendable {
        case integer, real, text
    }
}

/// A Swift value stored as a column's value.
package protocol StoredValueConvertible {
    /// What the column holds.
    static var storedKind: StoredValue.Kind { get }
    /// Whether the value may be `NULL`.
    static var isOptional: Bool { get }
    /// The value as stored.
    var storedValue: StoredValue { get }
    /// Binds the value to a SQLite statement's next parameter.
    func bind(to statement: inout FastStatement)
}

extension StoredValueConvertible {
    package static var isOptional: Bool { false }
}

extension Int64: StoredValueConvertible {
    package func bind(to statement: inout FastStatement) { statement.bind(self) }
    package static var storedKind: StoredValue.Kind { .integer }
    package var storedValue: StoredValue { .integer(self) }
}

extension Int: StoredValueConvertible {
    package func bind(to statement: inout FastStatement) { statement.bind(self) }
    package static var storedKind: StoredValue.Kind { .integer }
    package var storedValue: StoredValue { .integer(Int64(self)) }
}

/// Stored as the integer 1 or 0, as SQLite stores booleans.
extension Bool: StoredValueConvertible {
    package func bind(to statement: inout FastStatement) { statement.bind(self) }
    package static var storedKind: StoredValue.Kind { .integer }
    package var storedValue: StoredValue { .integer(self ? 1 : 0) }
}

extension Double: StoredValueConvertible {
    package func bind(to statement: inout FastStatement) { statement.bind(self) }
    package static var storedKind: StoredValue.Kind { .real }
    package var storedValue: StoredValue { .real(self) }
}

extension String: StoredValueConvertible {
    package func bind(to statement: inout FastStatement) { statement.bind(self) }
    package static var storedKind: StoredValue.Kind { .text }
    package var storedValue: StoredValue { .text(self) }
}

extension Optional: StoredValueConvertible where Wrapped: StoredValueConvertible {
    package static var storedKind: StoredValue.Kind { Wrapped.storedKind }
    package static var isOptional: Bool { true }
    package func bind(to statement: inout FastStatement) {
        switch self {
        case .some(let value): value.bind(to: &statement)
        case .none: statement.bindNull()
        }
    }
    package var storedValue: StoredValue {
        switch self {
        case .some(let value): value.storedValue
        case .none: .null
        }
    }
}
