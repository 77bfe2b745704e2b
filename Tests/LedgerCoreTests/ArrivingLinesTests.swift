import Foundation
import LedgerCore
import Testing

@Suite struct ArrivingLinesTests {
    /// A pipe whose reading end an `ArrivingLines` reads.
    struct Feed {
        let pipe = Pipe()
        let clock = ReadClock()
        let lines: ArrivingLines

        init() {
            lines = ArrivingLines(
                descriptor: pipe.fileHandleForReading.fileDescriptor, clock: { [clock] in clock.read() })
        }

        func write(_ text: String) {
            pipe.fileHandleForWriting.write(Data(text.utf8))
        }

        /// Writes `text` and waits until the reading thread has read it, so the next write is
        /// another read.
        func writeAndWaitForTheRead(_ text: String) {
            let before = clock.reads
            write(text)
            clock.waitForReads(before + 1)
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
        for piece in ["first li", "ne\r", "\nsecond\n\nthi", "rd"] { feed.writeAndWaitForTheRead(piece) }
        try feed.close()
        #expect(feed.clock.reads == 4, "each piece a read of its own")
        #expect(feed.all() == ["first line", "second", "", "third"])
    }

    /// What the taker does between lines (storing them) does not move when a line arrived.
    @Test func eachLineKeepsItsArrivalHoweverLateItIsTaken() throws {
        let feed = Feed()
        feed.clock.now = 100
        feed.writeAndWaitForTheRead("one\n")
        feed.clock.now = 100.5
        feed.writeAndWaitForTheRead("two\n")
        try feed.close()
        feed.clock.now = 200
        let one = try #require(feed.lines.next())
        let two = try #require(feed.lines.next())
        #expect(feed.lines.next() == nil)
        #expect(one.at == 100 && two.at == 100.5, "stamped when read, not when taken")
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

/// The clock an ``ArrivingLines`` stamps its reads with: set by the test, counting the reads.
final class ReadClock: @unchecked Sendable {
    private let condition = NSCondition()
    private var time = 0.0
    private var count = 0

    var now: Double {
        get { condition.withLock { time } }
        set { condition.withLock { time = newValue } }
    }

    var reads: Int { condition.withLock { count } }

    /// The reading thread's call: one per read.
    func read() -> Double {
        condition.withLock {
            count += 1
            condition.broadcast()
            return time
        }
    }

    /// Waits until `count` reads have been stamped (at most a minute, in case of a bug).
    func waitForReads(_ count: Int) {
        let deadline = Date().addingTimeInterval(60)
        condition.withLock {
            while self.count < count, condition.wait(until: deadline) {}
        }
    }
}
