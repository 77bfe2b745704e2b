import Foundation

/// A JSON value as it was captured: the free-form part of captures and labels.
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number; JSON does not tell integers apart, so every number is a `Double`.
    case number(Double)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object; the order of its members is not kept.
    case object([String: JSONValue])
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// A ``string(_:)``.
    /// - Parameter value: the string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A ``number(_:)``, the integer converted to `Double`.
    /// - Parameter value: the integer.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A ``number(_:)``.
    /// - Parameter value: the number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// A ``bool(_:)``.
    /// - Parameter value: the Boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An ``array(_:)``.
    /// - Parameter elements: the elements, in order.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// ``null``.
    /// - Parameter nilLiteral: the empty tuple a `nil` literal passes.
    public init(nilLiteral: ()) { self = .null }
    /// An ``object(_:)``; for a key given twice, the last value wins.
    /// - Parameter elements: the members.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue {
    /// The value as compact JSON text with sorted keys, as the store keeps it.
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Parses JSON text back into a value; `nil` when the text is not JSON.
    /// - Parameter jsonText: JSON text, such as ``jsonText`` makes.
    public init?(jsonText: String) {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(jsonText.utf8))
        else { return nil }
        self = value
    }
}
