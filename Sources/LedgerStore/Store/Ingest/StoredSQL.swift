/// The SQL dialects the stores speak.
package enum SQLDialect: Sendable {
    case sqlite, postgresql

    /// The `number`th parameter of a statement, counted from 1.
    package func parameter(_ number: Int) -> String {
        switch self {
        case .sqlite: "?\(number)"
        case .postgresql: "$\(number)"
        }
    }

    /// A parameter of an insert, where each is named once: `?` for SQLite, which looks numbered
    /// parameters up one by one as it prepares a statement (hundreds in a multi-row insert);
    /// else the `number`th.
    package func insertParameter(_ number: Int) -> String {
        self == .sqlite ? "?" : parameter(number)
    }
}

/// What an insert does with a row whose key is stored already.
package enum StoredConflict: Sendable {
    /// Fails, as the table's constraints say.
    case fail
    /// Stores nothing.
    case ignore
    /// Merges the row into the stored one, each column as its ``StoredMerge`` says.
    case merge
}

extension StoredMerge {
    /// The value this merge stores, from the `stored` and `new` values' SQL; `nil` when the column
    /// is not written over a stored row.
    package func expression(stored: String, new: String, _ dialect: SQLDialect) -> String? {
        switch self {
        case .keep, .key: nil
        case .keepGiven: "coalesce(\(stored), \(new))"
        case .takeGiven: "coalesce(\(new), \(stored))"
        case .takeGivenOr(let fallback): "coalesce(\(new), \(stored), \(fallback))"
        case .replace: new
        case .earliest: "\(dialect == .sqlite ? "min" : "least")(\(stored), \(new))"
        case .latest: "\(dialect == .sqlite ? "max" : "greatest")(coalesce(\(stored), \(new)), \(new))"
        case .fillEmpty: "CASE WHEN \(stored) = '' THEN \(new) ELSE \(stored) END"
        }
    }
}

extension StoredRow {
    /// The columns that name a row: an upsert's conflict target, an update's `WHERE`.
    package static var keyColumns: [StoredColumn<Self>] { columns.filter { $0.merge == .key } }

    /// The columns ``updateSQL(_:where:returning:)`` takes, in the order of its parameters: those
    /// that name the row and those it merges.
    package static var updateColumns: [StoredColumn<Self>] { columns.filter { $0.merge != .keep } }

    /// An `INSERT` of `rows` rows, parameters numbered in the order of ``StoredRow/columns``, row after row.
    /// - Parameters:
    ///   - dialect: The database's dialect.
    ///   - rows: How many rows the statement inserts.
    ///   - conflict: What to do with a row whose key is stored already.
    ///   - returning: What the statement returns, when anything.
    /// - Returns: The statement.
    package static func insertSQL(
        _ dialect: SQLDialect, rows: Int = 1, conflict: StoredConflict = .fail, returning: String? = nil
    ) -> String {
        var parameter = 0
        let values = (0..<rows).map { _ in
            let row = columns.map { _ in
                parameter += 1
                return dialect.insertParameter(parameter)
            }
            return "(\(row.joined(separator: ", ")))"
        }
        var sql = "INSERT INTO \(table) (\(columns.map(\.name).joined(separator: ", ")))"
        sql += " VALUES \(values.joined(separator: ", "))"
        sql += conflictClause(conflict, dialect)
        if let returning { sql += " RETURNING \(returning)" }
        return sql
    }

    /// The `ON CONFLICT` clause of an insert whose new row's columns are read as `excluded`.
    package static func conflictClause(_ conflict: StoredConflict, _ dialect: SQLDialect) -> String {
        let target = keyColumns.map(\.name).joined(separator: ", ")
        switch conflict {
        case .fail:
            return ""
        case .ignore:
            return " ON CONFLICT (\(target)) DO NOTHING"
        case .merge:
            let sets = columns.compactMap { column in
                column.merge.expression(stored: "\(table).\(column.name)", new: "excluded.\(column.name)", dialect)
                    .map { "\(column.name) = \($0)" }
            }
            return " ON CONFLICT (\(target)) DO UPDATE SET \(sets.joined(separator: ", "))"
        }
    }

    /// An `UPDATE` of the row its key columns name, merging the others into it; parameters
    /// numbered in the order of ``updateColumns``.
    /// - Parameters:
    ///   - dialect: The database's dialect.
    ///   - condition: What the stored row must also meet.
    ///   - returning: What the statement returns, when anything.
    /// - Returns: The statement.
    package static func updateSQL(_ dialect: SQLDialect, where condition: String? = nil, returning: String? = nil)
        -> String
    {
        var sets: [String] = []
        var wheres: [String] = []
        for (index, column) in updateColumns.enumerated() {
            let parameter = dialect.parameter(index + 1)
            if let merged = column.merge.expression(stored: "\(table).\(column.name)", new: parameter, dialect) {
                sets.append("\(column.name) = \(merged)")
            } else {
                wheres.append("\(column.name) = \(parameter)")
            }
        }
        if let condition { wheres.append(condition) }
        var sql = "UPDATE \(table) SET \(sets.joined(separator: ", ")) WHERE \(wheres.joined(separator: " AND "))"
        if let returning { sql += " RETURNING \(returning)" }
        return sql
    }
}
