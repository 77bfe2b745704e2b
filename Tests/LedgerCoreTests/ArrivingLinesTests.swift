import Foundation
import LedgerCore
import Testing

@Suite struct ArrivingLinesTests {
    /// A pipe whose reading end an `ArrivingLines` reads.
    struct Feed {
        let pipe = Pipe()
        let lines: ArrivingLines

        init() {
            lines = ArrivingLines(descriptor: pipe.fileHandleForReading.fileDescriptor)
        }

        func write(_ text: String) {
            pipe.fileHandleForWriting.write(Data(text.utf8))
        }

        func close() throws {
            try pipe.fileHandleForWriting.close()
        }

        func all() -> [String] {
            var read: [String] = []
            while let (line, _) = lines.next() { read.append(String(line)) }
            return read
        }
    }

    @Test func linesCutAcrossWritesAreWholeAndTheLastNeedsNoLineBreak() throws {
        let feed = Feed()
        for piece in ["first li", "ne\r", "\nsecond\n\nthi", "rd"] {
            feed.write(piece)
            Thread.sleep(forTimeInterval: 0.01)
        }
        try feed.close()
        #expect(feed.all() == ["first line", "second", "", "third"])
    }

    /// What the taker does between lines (storing them) does not move when a line arrived.
    @Test func eachLineKeepsItsArrivalHoweverLateItIsTaken() throws {
        let feed = Feed()
        feed.write("one\n")
        Thread.sleep(forTimeInterval: 0.5)
        feed.write("two\n")
        try feed.close()
        Thread.sleep(forTimeInterval: 0.5)
        let taken = Date().timeIntervalSince1970
        let one = try #require(feed.lines.next())
        let two = try #require(feed.lines.next())
        #expect(feed.lines.next() == nil)
        #expect(two.at - one.at >= 0.25, "half a second apart, however busy the machine")
        #expect(two.at < taken - 0.25, "stamped when read, not when taken")
    }

    @Test func aWriterFarAheadIsHeldBackAndLosesNothing() throws {
        let feed = Feed()
        let line = String(repeating: "x", count: 1_023) + "\n"
        let count = 3 * ArrivingLines.maximumBytesAhead / line.utf8.count
        let done = NSCondition()
        nonisolated(unsafe) var finished = false
        Thread {
            for _ in 0..<count { feed.write(line) }
            try? feed.close()
            done.lock()
            finished = true
            done.signal()
            done.unlock()
        }.start()
        done.lock()
        let heldBack = !done.wait(until: Date(timeIntervalSinceNow: 1)) && !finished
        done.unlock()
        #expect(heldBack, "nothing is taken, so the writer waits")
        let read = feed.all()
        #expect(read.count == count)
        #expect(read.allSatisfy { $0.utf8.count == 1_023 })
    }

    @Test func anEmptyStreamHasNoLines() throws {
        let feed = Feed()
        try feed.close()
        #expect(feed.lines.next() == nil)
    }
}
