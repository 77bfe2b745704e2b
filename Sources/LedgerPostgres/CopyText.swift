import LedgerStore
import NIOCore

/// Rows in `COPY … FROM STDIN`'s text format: fields separated by tabs, rows by newlines, `\N` for
/// NULL, and backslash, tab, newline and carriage return escaped inside text.
struct CopyText {
    private(set) var buffer = ByteBuffer()

    /// Appends `row`'s columns as one row, `id` first when given.
    mutating func append<Row: StoredRow>(_ row: Row, id: Int64? = nil) {
        if let id { append(id) }
        let columns = Row.columns
        for index in columns.indices {
            append(columns[index].value(row), last: index == columns.count - 1)
        }
    }

    mutating func append(_ value: StoredValue, last: Bool = false) {
        switch value {
        case .integer(let value): append(value, last: last)
        case .real(let value): append(value, last: last)
        case .text(let value): append(value, last: last)
        case .null: null(last)
        }
    }

    mutating func append(_ value: Int64?, last: Bool = false) {
        guard let value else { return null(last) }
        buffer.writeString(String(value))
        separate(last)
    }

    mutating func append(_ value: Int?, last: Bool = false) {
        append(value.map(Int64.init), last: last)
    }

    mutating func append(_ value: Double?, last: Bool = false) {
        guard let value else { return null(last) }
        if value.isNaN {
            buffer.writeString("NaN")
        } else if value.isInfinite {
            buffer.writeString(value < 0 ? "-Infinity" : "Infinity")
        } else {
            buffer.writeString(String(value))
        }
        separate(last)
    }

    mutating func append(_ value: String?, last: Bool = false) {
        guard let value else { return null(last) }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): buffer.writeString("\\\\")
            case UInt8(ascii: "\t"): buffer.writeString("\\t")
            case UInt8(ascii: "\n"): buffer.writeString("\\n")
            case UInt8(ascii: "\r"): buffer.writeString("\\r")
            default: buffer.writeInteger(byte)
            }
        }
        separate(last)
    }

    private mutating func null(_ last: Bool) {
        buffer.writeString("\\N")
        separate(last)
    }

    private mutating func separate(_ last: Bool) {
        buffer.writeInteger(last ? UInt8(ascii: "\n") : UInt8(ascii: "\t"))
    }
}
