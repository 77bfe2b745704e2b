import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

@Suite struct LineReaderTests {
    @Test func splitsLinesAndDropsCarriageReturns() {
        let lines = LineReader(.data(Data("a\r\nbb\n\nccc".utf8))).map { String(decoding: $0, as: UTF8.self) }
        #expect(lines == ["a", "bb", "", "ccc"])
    }

    @Test func readsFilesAcrossChunkBoundaries() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let lines = (0..<50_000).map { "line \($0) " + String(repeating: "x", count: $0 % 97) }
        let url = try directory.write("big.txt", lines.joined(separator: "\n") + "\n")
        let read = LineReader(.file(url)).map { String(decoding: $0, as: UTF8.self) }
        #expect(read == lines)
    }

    @Test func stopsAtALineOverTheLimit() {
        var iterator = LineReader(
            .data(Data(("ok\n" + String(repeating: "y", count: 100)).utf8)), maximumLineLength: 10
        )
        .makeIterator()
        #expect(iterator.next() != nil)
        #expect(iterator.next() == nil)
        #expect(iterator.failure?.line == 2)
    }
}

extension LineReaderTests {
    @Test func aLongLineEndingInANewlineIsCaughtToo() {
        var iterator = LineReader(
            .data(Data((String(repeating: "z", count: 50) + "\nok\n").utf8)), maximumLineLength: 10
        )
        .makeIterator()
        #expect(iterator.next() == nil)
        #expect(iterator.failure?.line == 1)
    }
}
