import Foundation
import LedgerCore
import Testing

@Suite struct RecordWritingTests {
    let run = "6f1c1f3e-6a3b-4c89-9a47-2f3f5f5e8a10"

    static let events: [LedgerEvent] = [
        .runStart(
            .init(
                at: 1_700_000_000.123456, project: "P \"quoted\"", source: "xctest", revision: "abc", branch: "main",
                ci: .init(provider: "github-actions", build: "9", url: "https://ci/9"), host: "mac", attempt: 2,
                labels: ["lane": "ci"], configuration: "iPhone 15 / iOS 18")),
        .runStart(.init(at: 0, project: "P", source: "x")),
        .testStart(
            .init(
                at: 2, test: "M.S/t\\n", attempt: 1, suite: "M.S", name: "t", file: "S.swift", line: 3, layer: .ui,
                tags: ["slow", "é"])),
        .activityStart(.init(at: 2.1, test: "M.S/t", activity: "a1", parent: "a0", name: "Log\tin\n")),
        .activityEnd(.init(at: 2.2, activity: "a1", outcome: .failed)),
        .capture(
            .init(
                at: 2.3, test: "M.S/t", verifier: "AlertVerifier", activity: "a1",
                fields: ["title": "Delete?\u{1}", "n": 1.5, "big": 1e300, "list": [true, nil, ["k": -3]]])),
        .predicate(
            .init(
                at: 2.4, test: "M.S/t", name: "spinner", expect: .doesntHold, held: false, attempts: 3, waited: 0.02,
                timeout: 1, interval: 0.01, activity: "a1", file: "S.swift", line: 9)),
        .issue(
            .init(
                at: 2.5, test: "M.S/t", message: "XCTAssertEqual failed: (\"1\")", file: "S.swift", line: 12,
                kind: .crash)),
        .testEnd(.init(at: 3, test: "M.S/t", outcome: .expectedFailure, duration: 1e-7, message: "🧪")),
        .runEnd(.init(at: 4, outcome: .failed)),
        .runEnd(.init(at: 5)),
    ]

    @Test(arguments: events)
    func writtenLinesDecodeToTheSameRecord(_ event: LedgerEvent) throws {
        let record = LedgerRecord(run: run, event: event)
        let line = Data(record.jsonLine)
        #expect(!line.contains(0x0A))
        var decoder = EventStreamDecoder(source: "x")
        #expect(try decoder.decode(line: line, number: 1) == record)
        #expect(try JSONDecoder().decode(LedgerRecord.self, from: line) == record)
    }

    @Test func linesAppendToABufferEachWithItsNewlineAndIntegersKeepEveryDigit() throws {
        let records = [Int.min, -1, 0, 7, 1_234_567_890, Int.max].map { line in
            LedgerRecord(run: run, event: .issue(.init(at: 1, test: "T/t", message: "m", line: line)))
        }
        var buffer = Array("prefix\n".utf8)
        for record in records { record.appendJSONLine(to: &buffer) }
        let lines = buffer.split(separator: 0x0A)
        #expect(lines.count == records.count + 1)
        #expect(buffer.last == 0x0A)
        var decoder = EventStreamDecoder(source: "x")
        for (line, record) in zip(lines.dropFirst(), records) {
            #expect(try decoder.decode(line: Data(line), number: 1) == record)
        }
    }
}
