import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// What the Bacon module writes against `LedgerEvents.schema`, the one description of the event
/// stream: the module is Ruby, written by hand, so nothing generated keeps it to the schema.
/// The real `bacon` runs the fixture's specs (nesting, outcomes, a UI context, activities,
/// captures, `eventually` and predicates) and a spec retried once, writing to a file.
@Suite(.enabled(if: InstalledTools.bacon != nil, "bacon (Debian's ruby-bacon) is not installed"))
struct BaconEventSchemaTests {
    static let schemaFile = CLI.packageRoot.appending(path: "Sources/LedgerCore/Events/LedgerEvents.schema")

    @Test func everyEventTheModuleWritesIsTheSchemasWithItsTypes() async throws {
        let schema = try LedgerSchema(parsing: String(contentsOf: Self.schemaFile, encoding: .utf8))
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let bacon = try #require(InstalledTools.bacon)
        let module = CLI.packageRoot.appending(path: "Formatters/bacon/testledger").path

        let fixture = CLI.packageRoot.appending(path: "Tests/Fixtures/BaconSpecs")
        let specs = try FileManager.default.contentsOfDirectory(atPath: fixture.appending(path: "spec").path)
            .filter { $0.hasSuffix("_spec.rb") }.sorted().map { "spec/" + $0 }
        let fixtureEvents = directory.path("fixture.ndjson")
        _ = try await ChildProcess.runTool(
            [bacon, "-r", module, "-o", "TestLedger"] + specs, environment: ["TESTLEDGER_EVENTS": fixtureEvents],
            in: fixture)

        try directory.write("spec/retry_spec.rb", BaconModuleTests.failsOnce)
        let retryEvents = directory.path("retry.ndjson")
        let retried = try await ChildProcess.runTool(
            [bacon, "-r", module, "-o", "TestLedger", "spec/retry_spec.rb"],
            environment: ["TESTLEDGER_EVENTS": retryEvents, "TESTLEDGER_TEST_RETRIES": "1"], in: directory.url)
        #expect(retried.status == 0, "\(retried.stdout)\(retried.stderr)")

        var written: Set<String> = []
        for file in [fixtureEvents, retryEvents] {
            let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
            var decoder = EventStreamDecoder(source: file)
            for (index, line) in lines.enumerated() {
                let name = "\((file as NSString).lastPathComponent):\(index + 1)"
                let event = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
                let problems = schema.problems(in: event)
                #expect(problems.isEmpty, "\(name): \(problems.joined(separator: "; ")) in \(line)")
                do {
                    _ = try decoder.decode(line: Data(line.utf8), number: index + 1)
                } catch {
                    Issue.record("\(name): the reader refuses it: \(error)")
                }
                if case .object(let fields) = event, case .string(let type)? = fields["type"] {
                    written.insert(type)
                    if type == "test.start", case .number(let attempt)? = fields["attempt"], attempt > 1 {
                        written.insert("test.start (a retry)")
                    }
                }
            }
        }
        let expected: Set<String> = [
            "run.start", "test.start", "test.start (a retry)", "activity.start", "activity.end", "capture",
            "predicate", "issue", "test.end", "run.end",
        ]
        #expect(expected.isSubset(of: written), "not written: \(expected.subtracting(written).sorted())")
    }

    @Test func aFieldTheSchemaLacksOrOfAnotherTypeIsNamed() throws {
        let schema = try LedgerSchema(parsing: String(contentsOf: Self.schemaFile, encoding: .utf8))
        func problems(_ line: String) throws -> [String] {
            schema.problems(in: try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8)))
        }
        let run = #""v":1,"run":"r","at":1.5"#
        #expect(try problems(#"{\#(run),"type":"run.end","outcome":"passed"}"#).isEmpty)
        #expect(try problems(#"{\#(run),"type":"run.end","outcome":"great"}"#) == ["outcome: not a RunOutcome"])
        #expect(try problems(#"{\#(run),"type":"run.end","colour":"red"}"#) == ["colour: not in the schema"])
        #expect(try problems(#"{\#(run),"type":"run.stop"}"#) == ["type: run.stop is not an event of the schema"])
        #expect(
            try problems(#"{\#(run),"type":"test.end","test":"t","attempt":1.5,"outcome":"passed","duration":0}"#)
                == ["attempt: not an Int"])
        #expect(
            try problems(#"{\#(run),"type":"test.end","test":"t","outcome":"passed"}"#)
                == ["attempt: missing", "duration: missing"])
        #expect(
            try problems(#"{\#(run),"type":"run.start","project":"p","source":"s","ci":{"provider":1}}"#)
                == ["ci.provider: not a String"])
    }
}

/// `LedgerEvents.schema` read for checking lines: each event's and object's fields, with their
/// types and whether they are optional. The grammar is the schema file's own header.
struct LedgerSchema {
    struct Field {
        var type: String
        var isOptional: Bool
    }

    /// Fields by name, by event type (`run.start`) or object name (`CI`).
    var events: [String: [String: Field]] = [:]
    var objects: [String: [String: Field]] = [:]

    /// Every enumeration the schema names, and its values.
    static let enumerations: [String: @Sendable (String) -> Bool] = [
        "Outcome": { Outcome(rawValue: $0) != nil },
        "RunOutcome": { RunOutcome(rawValue: $0) != nil },
        "Layer": { Layer(rawValue: $0) != nil },
        "PredicateExpectation": { PredicateExpectation(rawValue: $0) != nil },
        "LedgerEvent.IssueKind": { LedgerEvent.IssueKind(rawValue: $0) != nil },
    ]

    /// A line of the schema that is not a declaration or a field.
    struct Unreadable: Error {
        var line: String
    }

    init(parsing text: String) throws {
        var current: (isEvent: Bool, name: String)?
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.allSatisfy(\.isWhitespace) {
            if line.hasPrefix(" ") {
                let declaration = (line.components(separatedBy: " — ").first ?? "").trimmingCharacters(in: .whitespaces)
                guard let colon = declaration.firstIndex(of: ":"), let owner = current else {
                    throw Unreadable(line: String(line))
                }
                let name = String(declaration[..<colon])
                var type = declaration[declaration.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                type = type.components(separatedBy: " = ").first ?? type
                if type.hasSuffix(" reused") { type = String(type.dropLast(" reused".count)) }
                let field = Field(
                    type: type.hasSuffix("?") ? String(type.dropLast()) : type, isOptional: type.hasSuffix("?"))
                if owner.isEvent {
                    events[owner.name, default: [:]][name] = field
                } else {
                    objects[owner.name, default: [:]][name] = field
                }
            } else {
                let words = line.split(separator: " ").map(String.init)
                switch words.count > 1 ? words[0] : "" {
                case "event": current = (true, words[1])
                case "object": current = (false, String(words[1].dropLast(words[1].hasSuffix(":") ? 1 : 0)))
                default: throw Unreadable(line: String(line))
                }
            }
        }
    }

    /// What in one line the schema does not allow, each naming the field; empty when nothing.
    func problems(in line: JSONValue) -> [String] {
        guard case .object(var fields) = line else { return ["not a JSON object"] }
        var problems: [String] = []
        if fields.removeValue(forKey: "v") != .number(1) { problems.append("v: not 1") }
        if case .string? = fields.removeValue(forKey: "run") {} else { problems.append("run: not a String") }
        guard case .string(let type)? = fields.removeValue(forKey: "type") else { return problems + ["type: missing"] }
        guard let declared = events[type] else { return problems + ["type: \(type) is not an event of the schema"] }
        return problems + check(fields, against: declared, path: "")
    }

    private func check(_ fields: [String: JSONValue], against declared: [String: Field], path: String) -> [String] {
        var problems: [String] = []
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            guard let field = declared[name] else {
                problems.append("\(path)\(name): not in the schema")
                continue
            }
            problems += check(value, type: field.type, path: path + name)
        }
        for (name, field) in declared.sorted(by: { $0.key < $1.key }) where !field.isOptional && fields[name] == nil {
            problems.append("\(path)\(name): missing")
        }
        return problems
    }

    private func check(_ value: JSONValue, type: String, path: String) -> [String] {
        let fits: Bool
        switch (type, value) {
        case ("String", .string), ("Double", .number), ("Bool", .bool), ("JSONValue", _): fits = true
        case ("Int", .number(let number)): fits = number == number.rounded() && abs(number) < 9e15
        case ("[String]", .array(let items)):
            fits = items.allSatisfy { if case .string = $0 { true } else { false } }
        case ("[String: String]", .object(let members)):
            fits = members.values.allSatisfy { if case .string = $0 { true } else { false } }
        case (_, .object(let members)) where objects[type] != nil:
            return check(members, against: objects[type] ?? [:], path: path + ".")
        case (_, .string(let text)) where Self.enumerations[type] != nil:
            fits = Self.enumerations[type]?(text) ?? false
        default: fits = false
        }
        return fits ? [] : ["\(path): not a\(type.first.map { "AEIOU".contains($0) } == true ? "n" : "") \(type)"]
    }
}
