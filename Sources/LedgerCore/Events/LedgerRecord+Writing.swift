/// Writes records as Ledger event stream lines without `JSONEncoder`: the test library writes
/// one or two per test, and `JSONEncoder` alone would cost more than the rest of recording.
extension LedgerRecord {
    /// The record as one line of JSON, without its newline.
    public var jsonLine: [UInt8] {
        var line: [UInt8] = []
        var writer = JSONLineWriter(appendingTo: &line)
        write(into: &writer)
        writer.finish(into: &line)
        return line
    }

    /// Appends the record as one line of JSON, newline included, to `buffer`.
    /// - Parameter buffer: the bytes the line is added to.
    public func appendJSONLine(to buffer: inout [UInt8]) {
        var writer = JSONLineWriter(appendingTo: &buffer)
        write(into: &writer)
        writer.finish(into: &buffer)
        buffer.append(0x0A)
    }

    private func write(into writer: inout JSONLineWriter) {
        writer.field("v", Self.version)
        writer.field("type", event.type)
        writer.field("run", run)
        event.write(into: &writer)
    }
}

/// Builds one JSON object field by field; absent (`nil`) fields are left out.
struct JSONLineWriter {
    private var bytes: [UInt8]
    private var isEmpty = true

    /// Starts an object at the end of `buffer`, taking the buffer over (without copying it)
    /// until ``finish(into:)`` hands it back.
    init(appendingTo buffer: inout [UInt8]) {
        bytes = []
        swap(&bytes, &buffer)
        bytes.append(UInt8(ascii: "{"))
    }

    /// Closes the object and hands the buffer back.
    mutating func finish(into buffer: inout [UInt8]) {
        bytes.append(UInt8(ascii: "}"))
        swap(&bytes, &buffer)
    }

    private mutating func key(_ name: StaticString) {
        if isEmpty { isEmpty = false } else { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Adds the field `name`, unless `value` is `nil`.
    mutating func field(_ name: StaticString, _ value: (some JSONLineValue)?) {
        guard let value else { return }
        key(name)
        value.write(into: &self)
    }

    fileprivate mutating func literal(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    fileprivate mutating func write(_ value: JSONValue) {
        switch value {
        case .null: literal("null")
        case .bool(let flag): literal(flag ? "true" : "false")
        case .number(let number): self.number(number)
        case .string(let text): string(text)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(item)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                string(member.key)
                bytes.append(UInt8(ascii: ":"))
                write(member.value)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Integral values print without a fraction; JSON has no infinity or NaN: those are null.
    fileprivate mutating func number(_ value: Double) {
        guard value.isFinite else { return literal("null") }
        if value == value.rounded(), abs(value) < 1e15 {
            integer(Int64(value))
        } else {
            bytes.append(contentsOf: value.description.utf8)
        }
    }

    /// Digits written straight into the buffer: a `String` per number would cost more.
    fileprivate mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 24 digits, most significant last
        var count = 0
        withUnsafeMutableBytes(of: &digits) { room in
            repeat {
                room[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(room[index]) }
        }
    }

    fileprivate mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var plainFrom = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainFrom..<index]))
                plainFrom = index + 1
                escape(byte)
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[plainFrom...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x22: bytes.append(UInt8(ascii: "\""))
        case 0x5C: bytes.append(UInt8(ascii: "\\"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex: StaticString = "0123456789abcdef"
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            bytes.append(hex.utf8Start[Int(byte >> 4)])
            bytes.append(hex.utf8Start[Int(byte & 0x0F)])
        }
    }
}

/// A value ``JSONLineWriter`` writes as a field's value.
protocol JSONLineValue {
    /// Writes the value where `writer`'s next value goes.
    func write(into writer: inout JSONLineWriter)
}

extension String: JSONLineValue {
    func write(into writer: inout JSONLineWriter) { writer.string(self) }
}

extension Int: JSONLineValue {
    func write(into writer: inout JSONLineWriter) { writer.integer(Int64(self)) }
}

extension Double: JSONLineValue {
    func write(into writer: inout JSONLineWriter) { writer.number(self) }
}

extension Bool: JSONLineValue {
    func write(into writer: inout JSONLineWriter) { writer.literal(self ? "true" : "false") }
}

extension JSONValue: JSONLineValue {
    func write(into writer: inout JSONLineWriter) { writer.write(self) }
}
