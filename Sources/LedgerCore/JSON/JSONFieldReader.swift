import Foundation

/// Typed reads of the members a ``JSONMemberTable`` gathered from the bytes a ``JSONScanner``
/// validated.
///
/// A member that is missing or of the wrong type throws a ``JSONFieldProblem`` worded as the
/// stream's Codable reader words it ("required field \`x\` is missing", "field \`x\` is not a
/// valid string"). A `null` member reads as absent where the field is optional and as the wrong type
/// where it is required. Arrays and objects are scanned again from bytes already validated, which
/// cannot fail, hence the `try?` there.
struct JSONFieldReader<Field: JSONField> {
    let scanner: JSONScanner
    let members: JSONMemberTable<Field>
    /// The nesting level of the object read, the top level being 1.
    let depth: Int
    /// The names leading to the object, each followed by a dot; empty at the top level.
    let path: String

    init(scanner: JSONScanner, members: JSONMemberTable<Field>, depth: Int = 1, path: String = "") {
        self.scanner = scanner
        self.members = members
        self.depth = depth
        self.path = path
    }

    /// The member, which must be there.
    func required(_ field: Field) throws(JSONFieldProblem) -> JSONSpan {
        guard let span = members[field] else {
            throw JSONFieldProblem("required field `\(path)\(field.name)` is missing")
        }
        return span
    }

    /// The member, unless it is missing or `null`.
    func optional(_ field: Field) -> JSONSpan? {
        guard let span = members[field], span.kind != .null else { return nil }
        return span
    }

    func requiredString(_ field: Field) throws(JSONFieldProblem) -> String {
        try string(required(field), field)
    }

    func string(_ field: Field) throws(JSONFieldProblem) -> String? {
        try optional(field, string)
    }

    /// A required string that is often the same as the one read before: then `recent` is returned,
    /// neither decoded nor allocated again.
    func requiredString(_ field: Field, reusing recent: inout String?) throws(JSONFieldProblem) -> String {
        let span = try required(field)
        guard span.kind == .string else { throw invalid(field, "string") }
        if !span.hasEscapes, let recent, Self.spells(recent, scanner.contents(span)) { return recent }
        let value = scanner.string(span)
        recent = value
        return value
    }

    func requiredDouble(_ field: Field) throws(JSONFieldProblem) -> Double {
        try double(required(field), field)
    }

    func double(_ field: Field) throws(JSONFieldProblem) -> Double? {
        try optional(field, double)
    }

    func requiredInt(_ field: Field) throws(JSONFieldProblem) -> Int {
        try int(required(field), field)
    }

    func int(_ field: Field) throws(JSONFieldProblem) -> Int? {
        try optional(field, int)
    }

    func requiredBool(_ field: Field) throws(JSONFieldProblem) -> Bool {
        switch try required(field).kind {
        case .true: true
        case .false: false
        default: throw invalid(field, "boolean")
        }
    }

    func bool(_ field: Field) throws(JSONFieldProblem) -> Bool? {
        guard optional(field) != nil else { return nil }
        return try requiredBool(field)
    }

    /// `read` applied to the member, unless it is missing or `null`.
    private func optional<Value>(
        _ field: Field, _ read: (JSONSpan, Field) throws(JSONFieldProblem) -> Value
    ) throws(JSONFieldProblem) -> Value? {
        guard let span = optional(field) else { return nil }
        return try read(span, field)
    }

    /// A string naming one of `Value`'s cases.
    func required<Value: RawRepresentable<String>>(_ field: Field, as type: Value.Type) throws(JSONFieldProblem)
        -> Value
    {
        try value(required(field), field, as: type)
    }

    /// A string naming one of `Value`'s cases, if present.
    func optional<Value: RawRepresentable<String>>(_ field: Field, as type: Value.Type) throws(JSONFieldProblem)
        -> Value?
    {
        guard let span = optional(field) else { return nil }
        return try value(span, field, as: type)
    }

    /// An array of strings.
    func strings(_ field: Field) throws(JSONFieldProblem) -> [String]? {
        guard let span = optional(field) else { return nil }
        guard span.kind == .array else { throw invalid(field, "value") }
        var elements: [JSONSpan] = []
        var reader = JSONScanner(scanner.bytes, at: span.start)
        _ = try? reader.scanArray(depth: depth + 1) { elements.append($0) }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            guard element.kind == .string else {
                throw JSONFieldProblem("field `\(path)\(field.name).Index \(index)` is not a valid string")
            }
            strings.append(scanner.string(element))
        }
        return strings
    }

    /// An object whose members are all strings; of duplicate keys the first counts.
    func stringDictionary(_ field: Field) throws(JSONFieldProblem) -> [String: String]? {
        guard let span = optional(field) else { return nil }
        guard span.kind == .object else { throw invalid(field, "value") }
        var members: [(key: JSONSpan, value: JSONSpan)] = []
        var reader = JSONScanner(scanner.bytes, at: span.start)
        _ = try? reader.scanObject(depth: depth + 1) { members.append(($0, $1)) }
        var dictionary: [String: String] = [:]
        for (keySpan, value) in members {
            let key = scanner.string(keySpan)
            guard dictionary[key] == nil else { continue }
            guard value.kind == .string else {
                throw JSONFieldProblem("field `\(path)\(field.name).\(key)` is not a valid string")
            }
            dictionary[key] = scanner.string(value)
        }
        return dictionary
    }

    /// An object, read by another set of fields.
    func object<Inner: JSONField>(_ field: Field, as fields: Inner.Type) throws(JSONFieldProblem)
        -> JSONFieldReader<Inner>?
    {
        guard let span = optional(field) else { return nil }
        guard span.kind == .object else { throw invalid(field, "value") }
        var members = JSONMemberTable<Inner>()
        var reader = JSONScanner(scanner.bytes, at: span.start)
        try? members.gather(from: &reader, depth: depth + 1)
        return JSONFieldReader<Inner>(
            scanner: scanner, members: members, depth: depth + 1, path: path + field.name + ".")
    }

    /// Any JSON value. A number out of the range of a `Double` is named as Foundation's
    /// `JSONDecoder` names it: by the innermost member on its path that no array encloses.
    func json(_ field: Field) throws(JSONFieldProblem) -> JSONValue? {
        guard let span = optional(field) else { return nil }
        var reader = JSONScanner(scanner.bytes, at: span.textStart)
        do {
            return try reader.parseValue(depth: depth + 1)
        } catch {
            let keys = error.path.prefix { if case .key = $0 { true } else { false } }
            let names = keys.map { if case .key(let key) = $0 { ".\(key)" } else { "" } }
            throw JSONFieldProblem("field `\(path)\(field.name)\(names.joined())` is not a valid value")
        }
    }

    private func string(_ span: JSONSpan, _ field: Field) throws(JSONFieldProblem) -> String {
        guard span.kind == .string else { throw invalid(field, "string") }
        return scanner.string(span)
    }

    private func double(_ span: JSONSpan, _ field: Field) throws(JSONFieldProblem) -> Double {
        guard span.kind == .number, let value = scanner.double(span) else { throw invalid(field, "number") }
        return value
    }

    private func int(_ span: JSONSpan, _ field: Field) throws(JSONFieldProblem) -> Int {
        guard span.kind == .number, let value = scanner.int(span) else { throw invalid(field, "integer") }
        return value
    }

    private func value<Value: RawRepresentable<String>>(
        _ span: JSONSpan, _ field: Field, as type: Value.Type
    ) throws(JSONFieldProblem) -> Value {
        let raw = try string(span, field)
        guard let value = Value(rawValue: raw) else {
            throw JSONFieldProblem(
                "field `\(path)\(field.name)`: Cannot initialize \(Value.self) from invalid String value \(raw)")
        }
        return value
    }

    private func invalid(_ field: Field, _ kind: String) -> JSONFieldProblem {
        JSONFieldProblem("field `\(path)\(field.name)` is not a valid \(kind)")
    }

    /// Whether `string`'s UTF-8 is exactly `bytes`.
    private static func spells(_ string: String, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var string = string
        return string.withUTF8 { utf8 in
            guard utf8.count == bytes.count else { return false }
            guard let left = utf8.baseAddress, let right = bytes.baseAddress else { return true }
            return memcmp(left, right, utf8.count) == 0
        }
    }
}

/// A member of a JSON object that is missing or not of the type its field needs.
struct JSONFieldProblem: Error, Equatable {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}
