import Foundation
import LedgerCore
import LedgerImport
import LedgerTestSupport
import Testing

@Suite struct PipelinedImporterTests {
    /// Emits `count` passing tests, a warning, then fails when asked to.
    struct Scripted: ResultImporter {
        var count: Int
        var failAtEnd = false

        struct Failure: Error, Equatable {}

        func importResults(from input: LineReader.Input, context: ImportContext, into sink: inout some EventSink)
            throws
        {
            let run = context.runID
            try sink.consume(LedgerRecord(run: run, event: .runStart(.init(at: 0, project: "P", source: "x"))))
            for index in 0..<count {
                try sink.consume(LedgerRecord(run: run, event: .testStart(.init(at: 1, test: "A/t\(index)"))))
                try sink.consume(
                    LedgerRecord(
                        run: run, event: .testEnd(.init(at: 2, test: "A/t\(index)", outcome: .passed, duration: 1))))
            }
            sink.warn("something was skipped")
            if failAtEnd { throw Failure() }
        }
    }

    let context = ImportContext(
        runID: UUID().uuidString.lowercased(), sourceName: "x", metadata: RunMetadata(project: "P"), fallbackStart: 0)

    @Test func passesEveryEventAndWarningInOrder() throws {
        var direct = CollectingSink()
        try Scripted(count: 10_000).importResults(from: .data(Data()), context: context, into: &direct)
        var piped = CollectingSink()
        try PipelinedImporter(Scripted(count: 10_000)).importResults(
            from: .data(Data()), context: context, into: &piped)
        #expect(piped.records == direct.records)
        #expect(piped.warnings == ["something was skipped"])
    }

    @Test func anImportersErrorArrivesAfterItsEvents() {
        var sink = CollectingSink()
        #expect(throws: Scripted.Failure.self) {
            try PipelinedImporter(Scripted(count: 5_000, failAtEnd: true))
                .importResults(from: .data(Data()), context: context, into: &sink)
        }
        #expect(sink.records.count == 1 + 5_000 * 2)
    }

    @Test func aSinkThatGivesUpStopsTheImporter() {
        struct GivesUp: EventSink {
            var seen = 0
            struct Enough: Error {}
            mutating func consume(_ record: LedgerRecord) throws {
                seen += 1
                if seen == 100 { throw Enough() }
            }
        }
        var sink = GivesUp()
        #expect(throws: GivesUp.Enough.self) {
            try PipelinedImporter(Scripted(count: 200_000)).importResults(
                from: .data(Data()), context: context, into: &sink)
        }
    }
}
