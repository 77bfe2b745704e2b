import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

@Suite struct EventStreamTests {
    let run = "6f1c1f3e-6a3b-4c89-9a47-2f3f5f5e8a10"

    func decode(_ line: String) throws -> LedgerRecord? {
        var decoder = EventStreamDecoder(source: "events.ndjson")
        return try decoder.decode(line: Data(line.utf8), number: 7)
    }

    @Test func everyEventTypeRoundTrips() throws {
        let events: [LedgerEvent] = [
            .runStart(
                .init(
                    at: 1, project: "P", source: "xctest", revision: "abc", branch: "main",
                    ci: .init(provider: "github-actions", build: "9", job: "test", url: "https://ci/9"),
                    host: "mac", attempt: 2, labels: ["lane": "ci"], configuration: "iPhone 15 / iOS 18")),
            .testStart(
                .init(
                    at: 2, test: "M.S/t", attempt: 1, suite: "M.S", name: "t", file: "S.swift", line: 3,
                    layer: .ui, tags: ["slow"])),
            .activityStart(.init(at: 2.1, test: "M.S/t", activity: "a1", parent: nil, name: "Log in")),
            .activityEnd(.init(at: 2.2, activity: "a1", outcome: .passed)),
            .capture(
                .init(
                    at: 2.3, test: "M.S/t", verifier: "AlertVerifier", activity: "a1",
                    fields: ["title": "Delete?", "actions": [["title": "OK", "style": "default"]], "animated": true])),
            .predicate(
                .init(
                    at: 2.4, test: "M.S/t", name: "spinner hidden", expect: .doesntHold, held: true, attempts: 3,
                    waited: 0.02, timeout: 1, interval: 0.01, activity: "a1", file: "S.swift", line: 9)),
            .issue(
                .init(
                    at: 2.5, test: "M.S/t", message: "XCTAssertEqual failed", file: "S.swift", line: 12,
                    kind: .assertion)),
            .testEnd(.init(at: 3, test: "M.S/t", outcome: .failed, duration: 1, message: "boom")),
            .runEnd(.init(at: 4, outcome: .failed)),
        ]
        let encoder = JSONEncoder()
        for event in events {
            let line = String(decoding: try encoder.encode(LedgerRecord(run: run, event: event)), as: UTF8.self)
            #expect(line.contains("\"v\":1"))
            #expect(line.contains("\"type\":\"\(event.type)\""))
            #expect(try decode(line) == LedgerRecord(run: run, event: event))
        }
    }

    @Test func missingRequiredFieldNamesTheFieldAndLine() {
        let line = #"{"v":1,"type":"test.end","run":"\#(run)","at":1,"test":"A/b","attempt":1,"duration":0.1}"#
        #expect {
            try decode(line)
        } throws: { error in
            let error = error as? LedgerInputError
            return error?.line == 7 && error?.source == "events.ndjson"
                && error?.problem.contains("`outcome`") == true
        }
    }

    @Test func lineThatIsNotJSONIsAnError() {
        #expect(throws: LedgerInputError.self) { try decode(#"{"v":1,"type":"run.end""#) }
        #expect(throws: LedgerInputError.self) { try decode("\u{FF}\u{FE}garbage") }
    }

    @Test func runMustBeAUUID() {
        #expect(throws: LedgerInputError.self) {
            try decode(#"{"v":1,"type":"run.end","run":"'; DROP TABLE run; --","at":1}"#)
        }
    }

    @Test func otherVersionsAreRefused() {
        #expect(throws: LedgerInputError.self) { try decode(#"{"v":2,"type":"run.end","run":"\#(run)","at":1}"#) }
    }

    @Test func unknownTypesAreSkippedWithAWarning() throws {
        var decoder = EventStreamDecoder(source: "x")
        let record = try decoder.decode(
            line: Data(#"{"v":1,"type":"screenshot","run":"\#(run)","at":1}"#.utf8), number: 3)
        #expect(record == nil)
        #expect(decoder.warnings == [#"x:3: skipped unknown event type "screenshot""#])
    }

    @Test func unknownFieldsAreIgnoredAndBlankLinesSkipped() throws {
        let record = try decode(#"{"v":1,"type":"run.end","run":"\#(run)","at":5,"extra":{"x":[1]}}"#)
        #expect(record?.event == .runEnd(.init(at: 5)))
        #expect(try decode("   ") == nil)
    }

    @Test func wrongFieldTypeIsNamed() {
        #expect {
            try decode(
                #"{"v":1,"type":"predicate","run":"\#(run)","at":1,"test":"t","attempt":1,"name":"n","expect":"holds","held":"yes","attempts":1,"waited":0,"timeout":1}"#
            )
        } throws: { error in
            (error as? LedgerInputError)?.problem.contains("held") == true
        }
    }
}
