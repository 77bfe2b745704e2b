import LedgerStore
import PostgresNIO

extension PostgresBindings {
    /// Appends a stored value as both stores type it: `bigint`, `double precision` or `text`.
    mutating func append(_ value: StoredValue) {
        switch value {
        case .integer(let value): append(value)
        case .real(let value): append(value)
        case .text(let value): append(value)
        case .null: appendNull()
        }
    }
}

extension StoredRow {
    /// The statement `sql` with the row's `columns` as its parameters, in order.
    func query(_ sql: String, columns: [StoredColumn<Self>] = Self.columns) -> PostgresQuery {
        var bindings = PostgresBindings(capacity: columns.count)
        for column in columns { bindings.append(column.value(self)) }
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }

    /// The columns of a `COPY` into the table (folded to lower case, as PostgreSQL stores unquoted
    /// names), `id` first when the rows carry ids of their own.
    static func copyColumns(ids: Bool = false) -> [String] {
        (ids ? ["id"] : []) + columns.map { $0.name.lowercased() }
    }

    /// An `INSERT` of the rows `source` holds.
    static func insertSQL(from source: UnnestedRows<Self>, conflict: StoredConflict, returning: String) -> String {
        """
        INSERT INTO \(table) (\(columns.map(\.name).joined(separator: ", ")))
        SELECT \(source.values.joined(separator: ", ")) FROM \(source.from)\(conflictClause(conflict, .postgresql))
        RETURNING \(returning)
        """
    }

    /// An `UPDATE` of the stored rows the key columns of those in `source` name, merging the others
    /// into them.
    static func updateSQL(from source: UnnestedRows<Self>, where condition: String, returning: String) -> String {
        var sets: [String] = []
        var wheres: [String] = []
        for (column, value) in zip(columns, source.values) {
            let stored = "\(table).\(column.name)"
            if let merged = column.merge.expression(stored: stored, new: value, .postgresql) {
                sets.append("\(column.name) = \(merged)")
            } else if column.merge == .key {
                wheres.append("\(stored) = \(value)")
            }
        }
        return """
            UPDATE \(table) SET \(sets.joined(separator: ", ")) FROM \(source.from)
            WHERE \((wheres + [condition]).joined(separator: " AND ")) RETURNING \(returning)
            """
    }
}

/// Rows bound as one array per column, read back with `unnest`: one statement for many rows.
/// An optional column takes a second array saying whether each value is given, as the arrays
/// hold no `NULL`.
struct UnnestedRows<Row: StoredRow> {
    /// The `FROM` item: `unnest($1, …) AS alias(…)`.
    let from: String
    /// The SQL of each column's value in a row of ``from``, in the order of ``StoredRow/columns``.
    let values: [String]
    /// The arrays.
    let bindings: PostgresBindings

    init(_ rows: [Row], alias: String = "queued") {
        var bindings = PostgresBindings(capacity: Row.columns.count * 2)
        var names: [String] = []
        var values: [String] = []
        for column in Row.columns {
            let stored = rows.map { column.value($0) }
            switch column.type {
            case .integer: bindings.append(stored.map { $0.integer ?? 0 })
            case .real: bindings.append(stored.map { $0.real ?? 0 })
            case .text: bindings.append(stored.map { $0.text ?? "" })
            }
            names.append(column.name)
            guard column.isOptional else {
                values.append("\(alias).\(column.name)")
                continue
            }
            bindings.append(stored.map { $0 != .null })
            names.append("\(column.name)Given")
            values.append("CASE WHEN \(alias).\(column.name)Given THEN \(alias).\(column.name) END")
        }
        let parameters = names.indices.map { SQLDialect.postgresql.parameter($0 + 1) }
        self.from = "unnest(\(parameters.joined(separator: ", "))) AS \(alias)(\(names.joined(separator: ", ")))"
        self.values = values
        self.bindings = bindings
    }

    /// The statement `sql` reading these rows.
    func query(_ sql: String) -> PostgresQuery {
        PostgresQuery(unsafeSQL: sql, binds: bindings)
    }
}

extension PostgresCell {
    /// The cell's value, a column holding `type`.
    func storedValue(_ type: StoredValue.Kind) throws -> StoredValue {
        switch type {
        case .integer: try decode(Int64?.self).map(StoredValue.integer) ?? .null
        case .real: try decode(Double?.self).map(StoredValue.real) ?? .null
        case .text: try decode(String?.self).map(StoredValue.text) ?? .null
        }
    }
}

extension StoredValue {
    fileprivate var integer: Int64? {
        if case .integer(let value) = self { value } else { nil }
    }

    fileprivate var real: Double? {
        if case .real(let value) = self { value } else { nil }
    }

    fileprivate var text: String? {
        if case .text(let value) = self { value } else { nil }
    }
}
