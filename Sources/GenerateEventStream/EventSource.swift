/// The Swift source that `LedgerEvents.schema` stands for.
struct EventSource {
    let schema: EventSchema
    private let objectNames: [String]

    init(_ schema: EventSchema) {
        self.schema = schema
        objectNames = schema.objects.map(\.name)
    }

    private func kind(_ field: EventSchema.Field) -> FieldKind { FieldKind(field.type, objects: objectNames) }

    /// Every field name of every event, after the envelope's, each once, in order of appearance.
    var recordFields: [String] {
        var names = ["v", "type", "run"]
        for field in schema.events.flatMap(\.fields) where !names.contains(field.name) { names.append(field.name) }
        return names
    }

    func text() throws -> String {
        guard recordFields.count <= 64 else {
            throw SchemaProblem(line: 1, message: "at most 64 field names: a line's members are kept in 64 slots")
        }
        var out = "// Generated at build time from LedgerEvents.schema by GenerateEventStream. Do not edit.\n\n"
        out += "import Foundation\n\n"
        out += eventEnum()
        for object in schema.objects { out += try payload(object) + objectMembers(object) }
        for event in schema.events { out += try payload(event) + reading(event) + writing(event) }
        out += recordFieldEnum()
        out += dispatch()
        return out
    }

    // MARK: Declarations

    private func eventEnum() -> String {
        var out = """
            /// One event of the Ledger event stream, version 1: <doc:EventStream>.
            ///
            /// Every producer emits these and every consumer reads them. The envelope (`v`, `type`,
            /// `run`) lives in ``LedgerRecord``; the cases here carry each type's own fields.
            public enum LedgerEvent: Hashable, Sendable {

            """
        for event in schema.events {
            out += "    /// `\(event.wireType ?? "")`: \(event.summary)\n"
            out += "    case \(event.caseName)(\(event.name))\n"
        }
        for event in schema.events {
            out += "\n    /// The `\(event.wireType ?? "")` payload, when the event is one.\n"
            out += "    public var \(event.caseName): \(event.name)? {\n"
            out += "        if case .\(event.caseName)(let payload) = self { payload } else { nil }\n    }\n"
        }
        out += "\n    /// The `type` string that names the event on the wire.\n"
        out += "    public var type: String {\n        switch self {\n"
        for event in schema.events { out += "        case .\(event.caseName): \(quoted(event.wireType ?? ""))\n" }
        out += "        }\n    }\n\n"
        out += "    /// Each event type and its fields' names, in the order the schema declares them.\n"
        out += "    static let schema: [(type: String, required: [String], optional: [String])] = [\n"
        for event in schema.events {
            let required = event.fields.filter { !$0.isOptional }.map { quoted($0.name) }
            let optional = event.fields.filter(\.isOptional).map { quoted($0.name) }
            out += "        (\(quoted(event.wireType ?? "")), [\(required.joined(separator: ", "))], "
            out += "[\(optional.joined(separator: ", "))]),\n"
        }
        out += "    ]\n}\n\n"
        return out
    }

    private func payload(_ declaration: EventSchema.Declaration) throws -> String {
        let title = declaration.wireType.map { "`\($0)`: " } ?? ""
        var out = "extension LedgerEvent {\n"
        out += "    /// \(title)\(declaration.summary)\n"
        out += "    public struct \(declaration.name): Codable, Hashable, Sendable {\n"
        for field in declaration.fields {
            out += "        /// \(field.summary)\n"
            out += "        public var \(field.name): \(kind(field).swiftType(field))\n"
        }
        let parameters = declaration.fields.map { field in
            let initial = field.defaultValue ?? (field.isOptional ? "nil" : nil)
            return "\(field.name): \(kind(field).swiftType(field))" + (initial.map { " = \($0)" } ?? "")
        }
        out += "\n        /// Creates the payload from its fields; optional ones may be left out.\n"
        out += "        public init(\n            \(parameters.joined(separator: ",\n            "))\n        ) {\n"
        for field in declaration.fields { out += "            self.\(field.name) = \(field.name)\n" }
        out += "        }\n    }\n}\n\n"
        return out
    }

    // MARK: Reading and writing

    private func reading(_ event: EventSchema.Declaration) throws -> String {
        let arguments = try event.fields.map { "\($0.name): try \(try kind($0).read($0))" }
        return """
            extension LedgerEvent.\(event.name) {
                init(reading fields: JSONFieldReader<LedgerRecord.Field>, recent: inout LedgerRecord.RecentStrings)
                    throws(JSONFieldProblem)
                {
                    self.init(
                        \(arguments.joined(separator: ",\n            ")))
                }

            """
    }

    private func writing(_ event: EventSchema.Declaration) -> String {
        var out = "\n    func write(into writer: inout JSONLineWriter) {\n"
        for field in event.fields {
            out += "        writer.field(\(quoted(field.name)), \(kind(field).written(field)))\n"
        }
        out += "    }\n}\n\n"
        return out
    }

    private func objectMembers(_ object: EventSchema.Declaration) throws -> String {
        var out = "extension LedgerEvent.\(object.name) {\n"
        out += fieldEnum(object.fields.map(\.name), indent: "    ")
        let arguments = try object.fields.map { "\($0.name): try \(try kind($0).read($0))" }
        out += "\n    init(reading fields: JSONFieldReader<Field>) throws(JSONFieldProblem) {\n"
        out += "        self.init(\n            \(arguments.joined(separator: ",\n            ")))\n    }\n\n"
        out += "    /// The object as JSON, absent members left out.\n"
        out += "    var jsonValue: JSONValue {\n        var members: [String: JSONValue] = [:]\n"
        for field in object.fields {
            let value = kind(field).jsonValue(of: field.name)
            if field.isOptional {
                out += "        if let \(field.name) { members[\(quoted(field.name))] = \(value) }\n"
            } else {
                out += "        members[\(quoted(field.name))] = \(value)\n"
            }
        }
        out += "        return .object(members)\n    }\n}\n\n"
        return out
    }

    private func recordFieldEnum() -> String {
        "extension LedgerRecord {\n"
            + "    /// Every field any line of the stream may have: a line's members are gathered once,\n"
            + "    /// whatever its type, and each event reads the ones it needs.\n"
            + fieldEnum(recordFields, indent: "    ") + "}\n\n"
    }

    private func fieldEnum(_ names: [String], indent: String) -> String {
        var out = "\(indent)enum Field: Int, JSONField {\n"
        out += "\(indent)    case \(names.joined(separator: ", "))\n\n"
        out += "\(indent)    var name: String {\n\(indent)        switch self {\n"
        for name in names { out += "\(indent)        case .\(name): \(quoted(name))\n" }
        out += "\(indent)        }\n\(indent)    }\n\(indent)}\n"
        return out
    }

    /// The switches over the `type` string and over the cases.
    private func dispatch() -> String {
        var read = ""
        var decode = ""
        var encode = ""
        var write = ""
        var shift = ""
        var unattempted: [String] = []
        for event in schema.events {
            let type = quoted(event.wireType ?? "")
            read += "        case \(type): self = .\(event.caseName)(try .init(reading: fields, recent: &recent))\n"
            decode += "        case \(type): self = .\(event.caseName)(try \(event.name)(from: decoder))\n"
            encode += "        case .\(event.caseName)(let payload): try payload.encode(to: encoder)\n"
            write += "        case .\(event.caseName)(let payload): payload.write(into: &writer)\n"
            if event.fields.contains(where: { $0.name == "attempt" && !$0.isOptional }) {
                shift += "        case .\(event.caseName)(var payload):\n"
                shift += "            payload.attempt += offset\n            return .\(event.caseName)(payload)\n"
            } else {
                unattempted.append(".\(event.caseName)")
            }
        }
        if !unattempted.isEmpty {
            shift += "        case \(unattempted.joined(separator: ", ")):\n            return self\n"
        }
        let unknown = "        default: throw UnknownEventType(type: type)\n"
        return """
            extension LedgerEvent {
                /// Reads the event of type `type` from the members of its line.
                init(type: String, reading fields: JSONFieldReader<LedgerRecord.Field>, recent: inout LedgerRecord.RecentStrings)
                    throws
                {
                    switch type {
            \(read)\(unknown)        }
                }

                /// Decodes the event of type `type` from the line's keyed container.
                init(type: String, from decoder: any Decoder) throws {
                    switch type {
            \(decode)\(unknown)        }
                }

                /// Encodes the event's own fields beside the envelope's.
                func encodeFields(to encoder: any Encoder) throws {
                    switch self {
            \(encode)        }
                }

                /// Writes the event's own fields after the envelope's.
                func write(into writer: inout JSONLineWriter) {
                    switch self {
            \(write)        }
                }

                /// The event with its test attempt `offset` later; an event of no test attempt as it is.
                func attemptShifted(by offset: Int) -> LedgerEvent {
                    switch self {
            \(shift)        }
                }
            }

            """
    }

    private func quoted(_ text: String) -> String { "\"\(text)\"" }
}
