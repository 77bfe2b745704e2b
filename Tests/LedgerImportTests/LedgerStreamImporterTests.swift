import Foundation
import LedgerCore
import LedgerImport
import LedgerTestSupport
import Testing

@Suite struct LedgerStreamImporterTests {
    let context = ImportContext(
        runID: "unused", sourceName: "events.ndjson", metadata: RunMetadata(project: "P"), fallbackStart: 0)

    func importing(_ text: String) throws -> CollectingSink {
        var sink = CollectingSink()
        try LedgerStreamImporter().importResults(from: .data(Data(text.utf8)), context: context, into: &sink)
        return sink
    }

    @Test func passesEveryEventThroughInOrder() throws {
        let script = RunScript().start().pass("A/a").fail("A/b").end()
        let sink = try importing(script.ndjson)
        #expect(sink.records == script.records)
    }

    @Test func unknownTypesBecomeWarningsWithTheirLine() throws {
        let script = RunScript().start().end()
        let lines = script.ndjson.split(separator: "\n")
        let text = [String(lines[0]), #"{"v":1,"type":"video","run":"\#(script.run)","at":1}"#, String(lines[1])]
            .joined(separator: "\n")
        let sink = try importing(text)
        #expect(sink.records.count == 2)
        #expect(sink.warnings == [#"events.ndjson:2: skipped unknown event type "video""#])
    }

    @Test func aSinkProblemWithTheInputIsPinnedToItsLineAndOtherErrorsPassThrough() {
        struct OutOfOrder: EventInputProblem {}
        struct Refusing: EventSink {
            var error: any Error
            mutating func consume(_ record: LedgerRecord) throws {
                if case .testEnd = record.event { throw error }
            }
        }
        let text = RunScript().start().pass("A/a").end().ndjson
        var refusing = Refusing(error: OutOfOrder())
        #expect {
            try LedgerStreamImporter().importResults(from: .data(Data(text.utf8)), context: context, into: &refusing)
        } throws: { error in
            (error as? LedgerInputError)?.line == 3
        }
        // A store that cannot write is not the input's fault: its error is not given a line and a fix.
        var failing = Refusing(error: CocoaError(.fileWriteOutOfSpace))
        #expect {
            try LedgerStreamImporter().importResults(from: .data(Data(text.utf8)), context: context, into: &failing)
        } throws: { error in
            (error as? CocoaError)?.code == .fileWriteOutOfSpace
        }
    }

    @Test func aTruncatedLastLineIsAnError() {
        var text = RunScript().start().pass("A/a").end().ndjson
        text.removeLast(10)
        #expect {
            try importing(text)
        } throws: { error in
            (error as? LedgerInputError)?.line == 4
        }
    }

    @Test func binaryGarbageIsAnErrorOnItsFirstLine() {
        let garbage = String(decoding: (0..<4_096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }, as: UTF8.self)
        #expect {
            try importing(garbage)
        } throws: { error in
            (error as? LedgerInputError)?.line == 1
        }
    }

    @Test func aLineOverTheLimitIsRefusedWithoutReadingItWhole() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let start = RunScript().start().ndjson
        let url = try directory.write(
            "huge.ndjson", start + String(repeating: "x", count: LineReader.defaultMaximumLineLength + 10))
        var sink = CollectingSink()
        #expect {
            try LedgerStreamImporter().importResults(from: .file(url), context: context, into: &sink)
        } throws: { error in
            let error = error as? LedgerInputError
            return error?.line == 2 && error?.problem.contains("longer than") == true
        }
    }

    @Test func hostileTestNamesArePlainData() throws {
        let names = [
            "'; DROP TABLE run; --", "<script>alert(1)</script>", "Robert\"); DELETE FROM test; --", "🧪\u{0}x",
        ]
        var script = RunScript().start()
        for name in names { script = script.pass(name) }
        let sink = try importing(script.end().ndjson)
        let ids = sink.events.compactMap { event -> String? in
            if case .testEnd(let end) = event { return end.test }
            return nil
        }
        #expect(ids == names)
    }
}
