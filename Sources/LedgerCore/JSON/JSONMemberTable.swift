/// The members of one JSON object whose keys are known ``JSONField``s, gathered in one pass.
///
/// Of duplicate keys the first is kept, as Foundation's `JSONDecoder` keeps it; other members are
/// validated and passed over. The storage is reused from one object to the next, so gathering
/// allocates nothing.
struct JSONMemberTable<Field: JSONField> {
    private let lookup: JSONKeyLookup
    private var spans: [JSONSpan]
    private var present: UInt64 = 0

    init() {
        let fields = Array(Field.allCases)
        precondition(fields.allSatisfy { $0.slot >= 0 && $0.slot < 64 }, "a JSONField's slot is below 64")
        lookup = JSONKeyLookup(fields.map { ($0.name, $0.slot) })
        let slots = (fields.map(\.slot).max() ?? -1) + 1
        spans = Array(repeating: JSONSpan(kind: .null, start: 0, end: 0), count: slots)
    }

    /// The value of the member `field`, if the object has it.
    subscript(field: Field) -> JSONSpan? {
        present & (1 << UInt64(field.slot)) == 0 ? nil : spans[field.slot]
    }

    /// Reads the object at the scanner's cursor, at nesting level `depth`, forgetting the last one.
    mutating func gather(from scanner: inout JSONScanner, depth: Int) throws(JSONError) {
        present = 0
        let keys = JSONScanner(scanner.bytes)
        _ = try scanner.scanObject(depth: depth) { key, value in
            let slot =
                key.hasEscapes ? lookup.slot(of: Array(keys.string(key).utf8)) : lookup.slot(of: keys.contents(key))
            guard let slot, present & (1 << UInt64(slot)) == 0 else { return }
            present |= 1 << UInt64(slot)
            spans[slot] = value
        }
    }
}

/// Finds which of a few short names a key is, comparing integers rather than bytes: each name
/// up to 16 bytes long is packed into two words, and only names of the key's length are tried.
struct JSONKeyLookup {
    private struct Entry {
        var head: UInt64
        var tail: UInt64
        var slot: Int
    }

    private static let longest = 16
    /// Entries sorted by name length; names of length `n` are `entries[starts[n]..<starts[n + 1]]`.
    private let entries: [Entry]
    private let starts: [Int]

    init(_ names: [(name: String, slot: Int)]) {
        precondition(names.allSatisfy { $0.name.utf8.count <= Self.longest }, "JSON field names are short")
        var entries: [Entry] = []
        var starts: [Int] = []
        for length in 0...Self.longest {
            starts.append(entries.count)
            for (name, slot) in names where name.utf8.count == length {
                let (head, tail) = Self.pack(Array(name.utf8))
                entries.append(Entry(head: head, tail: tail, slot: slot))
            }
        }
        starts.append(entries.count)
        self.entries = entries
        self.starts = starts
    }

    /// The slot of the name that `key` spells, if any.
    func slot(of key: some Collection<UInt8>) -> Int? {
        let length = key.count
        guard length <= Self.longest else { return nil }
        let (head, tail) = Self.pack(key)
        for index in starts[length]..<starts[length + 1] {
            let entry = entries[index]
            if entry.head == head && entry.tail == tail { return entry.slot }
        }
        return nil
    }

    private static func pack(_ bytes: some Collection<UInt8>) -> (head: UInt64, tail: UInt64) {
        var head: UInt64 = 0
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        for byte in bytes {
            if shift < 64 {
                head |= UInt64(byte) << shift
            } else {
                tail |= UInt64(byte) << (shift - 64)
            }
            shift += 8
        }
        return (head, tail)
    }
}
