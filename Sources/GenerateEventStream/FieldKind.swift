/// How a field's value is read from and written to JSON.
enum FieldKind {
    case string, int, double, bool, strings, stringDictionary, json
    /// An object declared in the schema.
    case object(String)
    /// An enumeration with `String` raw values.
    case enumeration(String)

    init(_ type: String, objects: [String]) {
        switch type {
        case "String": self = .string
        case "Int": self = .int
        case "Double": self = .double
        case "Bool": self = .bool
        case "[String]": self = .strings
        case "[String: String]": self = .stringDictionary
        case "JSONValue": self = .json
        default: self = objects.contains(type) ? .object(type) : .enumeration(type)
        }
    }

    /// The Swift type of the property.
    func swiftType(_ field: EventSchema.Field) -> String {
        let base =
            switch self {
            case .object(let name): "LedgerEvent.\(name)"
            default: field.type
            }
        return field.isOptional ? base + "?" : base
    }

    /// The expression reading the field from `fields`, a `JSONFieldReader`.
    func read(_ field: EventSchema.Field) throws -> String {
        let key = "." + field.name
        let required = !field.isOptional
        switch self {
        case .string where field.isReused:
            return "fields.requiredString(\(key), reusing: &recent.\(field.name))"
        case .string: return required ? "fields.requiredString(\(key))" : "fields.string(\(key))"
        case .int: return required ? "fields.requiredInt(\(key))" : "fields.int(\(key))"
        case .double: return required ? "fields.requiredDouble(\(key))" : "fields.double(\(key))"
        case .bool: return required ? "fields.requiredBool(\(key))" : "fields.bool(\(key))"
        case .enumeration(let type):
            return required ? "fields.required(\(key), as: \(type).self)" : "fields.optional(\(key), as: \(type).self)"
        case .strings where !required: return "fields.strings(\(key))"
        case .stringDictionary where !required: return "fields.stringDictionary(\(key))"
        case .json where !required: return "fields.json(\(key))"
        case .object(let name) where !required:
            return "fields.object(\(key), as: LedgerEvent.\(name).Field.self).map { reader throws(JSONFieldProblem) in "
                + "try LedgerEvent.\(name)(reading: reader) }"
        default:
            throw SchemaProblem(
                line: field.line, message: "field `\(field.name)`: a \(field.type) field must be optional")
        }
    }

    /// The value `writer.field(_:_:)` takes: a string, number, Boolean or `JSONValue`, or `nil`.
    func written(_ field: EventSchema.Field) -> String {
        let name = field.name
        let chain = field.isOptional ? "?." : "."
        switch self {
        case .string, .int, .double, .bool, .json: return name
        case .enumeration: return name + chain + "rawValue"
        case .object: return name + chain + "jsonValue"
        case .strings:
            return field.isOptional
                ? "\(name).map { JSONValue.array($0.map(JSONValue.string)) }"
                : "JSONValue.array(\(name).map(JSONValue.string))"
        case .stringDictionary:
            return field.isOptional
                ? "\(name).map { JSONValue.object($0.mapValues(JSONValue.string)) }"
                : "JSONValue.object(\(name).mapValues(JSONValue.string))"
        }
    }

    /// The `JSONValue` of a present value named `value`, for the members of an object.
    func jsonValue(of value: String) -> String {
        switch self {
        case .string: ".string(\(value))"
        case .int: ".number(Double(\(value)))"
        case .double: ".number(\(value))"
        case .bool: ".bool(\(value))"
        case .json: value
        case .enumeration: ".string(\(value).rawValue)"
        case .object: "\(value).jsonValue"
        case .strings: ".array(\(value).map(JSONValue.string))"
        case .stringDictionary: ".object(\(value).mapValues(JSONValue.string))"
        }
    }
}
