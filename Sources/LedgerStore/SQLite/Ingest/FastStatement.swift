import GRDB
import GRDBSQLite

/// Binds and steps a prepared statement through SQLite's C API: the ingest's hot path, where
/// building `StatementArguments` for every row would cost more than the insert itself.
package struct FastStatement {
    private let statement: Statement
    private let handle: SQLiteStatement
    private var index: Int32 = 0

    init(_ statement: Statement) {
        self.statement = statement
        self.handle = statement.sqliteStatement
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    package mutating func bind(_ value: Int?) {
        index += 1
        if let value { sqlite3_bind_int64(handle, index, Int64(value)) } else { sqlite3_bind_null(handle, index) }
    }

    package mutating func bind(_ value: Int64?) {
        index += 1
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    package mutating func bind(_ value: Double?) {
        index += 1
        if let value { sqlite3_bind_double(handle, index, value) } else { sqlite3_bind_null(handle, index) }
    }

    package mutating func bind(_ value: Bool) {
        bind(value ? 1 : 0 as Int)
    }

    package mutating func bind(_ value: String?) {
        index += 1
        guard var value else {
            sqlite3_bind_null(handle, index)
            return
        }
        bindText(&value)
    }

    /// Binds `row`'s `columns`, in order.
    mutating func bind<Row: StoredRow>(_ row: Row, _ columns: [StoredColumn<Row>] = Row.columns) {
        // Through the buffer: iterating the array would copy each column, retaining its parts.
        columns.withUnsafeBufferPointer { columns in
            for index in columns.indices { columns[index].bind(row, &self) }
        }
    }

    /// Binds `NULL`.
    package mutating func bindNull() {
        index += 1
        sqlite3_bind_null(handle, index)
    }

    /// Binds text at the current index.
    private func bindText(_ value: inout String) {
        value.withUTF8 { bytes in
            _ = sqlite3_bind_text(
                handle, index, bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                Int32(bytes.count), Self.transient)
        }
    }

    /// Runs the statement; the first column of its first row when it returns one.
    /// - Throws: `DatabaseError` with SQLite's message.
    @discardableResult
    func step(in db: Database) throws -> Int64? {
        try row(in: db) { $0.int64(0) }
    }

    /// Runs the statement and reads its first row with `read`; `nil` when it returns none.
    /// - Throws: `DatabaseError` with SQLite's message.
    func row<T>(in db: Database, _ read: (Columns) throws -> T) throws -> T? {
        defer { sqlite3_reset(handle) }
        switch sqlite3_step(handle) {
        case SQLITE_ROW:
            let value = try read(Columns(handle: handle))
            while sqlite3_step(handle) == SQLITE_ROW {}
            return value
        case SQLITE_DONE:
            return nil
        case let code:
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
        }
    }

    /// Runs the statement and hands each row it returns to `read`.
    /// - Throws: `DatabaseError` with SQLite's message; what `read` throws.
    func forEachRow(in db: Database, _ read: (Columns) throws -> Void) throws {
        defer { sqlite3_reset(handle) }
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_ROW: try read(Columns(handle: handle))
            case SQLITE_DONE: return
            case let code:
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
            }
        }
    }

    /// The columns of the row a statement stands on, read through SQLite's C API.
    struct Columns {
        fileprivate let handle: SQLiteStatement

        func int64(_ index: Int32) -> Int64 {
            sqlite3_column_int64(handle, index)
        }

        func double(_ index: Int32) -> Double {
            sqlite3_column_double(handle, index)
        }

        /// The bytes of a blob column, valid only inside the call.
        func withBlob<T>(_ index: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
            let count = Int(sqlite3_column_bytes(handle, index))
            return try body(UnsafeRawBufferPointer(start: sqlite3_column_blob(handle, index), count: count))
        }

        /// The UTF-8 bytes of a text column, valid only inside the call; `nil` for NULL.
        func withText<T>(_ index: Int32, _ body: (UnsafeBufferPointer<UInt8>?) throws -> T) rethrows -> T {
            guard let text = sqlite3_column_text(handle, index) else { return try body(nil) }
            return try body(UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, index))))
        }

        func optionalDouble(_ index: Int32) -> Double? {
            sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : sqlite3_column_double(handle, index)
        }

        func int(_ index: Int32) -> Int? {
            sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(handle, index))
        }

        /// The column's value as stored.
        func storedValue(_ index: Int32) -> StoredValue {
            switch sqlite3_column_type(handle, index) {
            case SQLITE_INTEGER: .integer(sqlite3_column_int64(handle, index))
            case SQLITE_FLOAT: .real(sqlite3_column_double(handle, index))
            case SQLITE_NULL: .null
            default: string(index).map(StoredValue.text) ?? .null
            }
        }

        func string(_ index: Int32) -> String? {
            guard let text = sqlite3_column_text(handle, index) else { return nil }
            let count = Int(sqlite3_column_bytes(handle, index))
            return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
        }
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
