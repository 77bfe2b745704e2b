import Foundation
import Testing

@testable import LedgerCore

/// The specification users read, LedgerCore.docc/EventStream.md, against the schema the
/// reader and writer are generated from: every type and field, each required or optional as read.
@Suite struct EventStreamSpecificationTests {
    static let article = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Sources/LedgerCore/LedgerCore.docc/EventStream.md")

    /// The table rows of the section `### \`type\``, by field name: "required" or "optional".
    static func documentedFields(of type: String, in text: String) -> [String: String] {
        guard let heading = text.range(of: "### `\(type)`\n") else { return [:] }
        let rest = text[heading.upperBound...]
        let section = rest.range(of: "\n#").map { rest[..<$0.lowerBound] } ?? rest
        var fields: [String: String] = [:]
        for row in section.split(separator: "\n") where row.hasPrefix("| `") {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3 else { continue }
            fields[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells[2]
        }
        return fields
    }

    @Test func everyTypeAndFieldIsSpecifiedAsItIsRead() throws {
        let text = try String(contentsOf: Self.article, encoding: .utf8)
        #expect(LedgerEvent.schema.count == 11)
        for (type, required, optional) in LedgerEvent.schema {
            let documented = Self.documentedFields(of: type, in: text)
            #expect(!documented.isEmpty, "no section for \(type)")
            for field in required { #expect(documented[field] == "required", "\(type).\(field)") }
            for field in optional { #expect(documented[field] == "optional", "\(type).\(field)") }
            #expect(documented.count == required.count + optional.count, "\(type): no field beyond the schema's")
        }
    }

    /// Every line's envelope is `v`, `type` and `run`: a field of the same name would be read as
    /// the envelope's.
    @Test func noFieldSharesANameWithTheEnvelope() {
        for (type, required, optional) in LedgerEvent.schema {
            #expect(Set(required + optional).isDisjoint(with: ["v", "type", "run"]), "\(type)")
        }
    }

    @Test func aBadLinePointsToTheSpecification() throws {
        var decoder = EventStreamDecoder(source: "results.ndjson")
        let error = #expect(throws: LedgerInputError.self) { _ = try decoder.decode(line: Data("{}".utf8), number: 3) }
        #expect(error?.description.contains("LedgerCore.docc/EventStream.md") == true, "\(String(describing: error))")
    }

    @Test func aRunOutcomeOutsideTheListIsAnError() throws {
        var decoder = EventStreamDecoder(source: "results.ndjson")
        func runEnd(_ outcome: String) -> Data {
            Data(
                #"{"v":1,"type":"run.end","run":"6f1c1f3e-6a3b-4c89-9a47-2f3f5f5e8a10","at":1,"outcome":"\#(outcome)"}"#
                    .utf8)
        }
        let error = #expect(throws: LedgerInputError.self) { _ = try decoder.decode(line: runEnd("great"), number: 7) }
        #expect(error?.description.contains("RunOutcome") == true, "\(String(describing: error))")
        #expect(try decoder.decode(line: runEnd("finished"), number: 8)?.event.runEnd?.outcome == .finished)
    }
}
