import Foundation
import LedgerTestSupport
import NIOCore
import Testing

@testable import LedgerPostgres

@Suite struct CopyFeedTests {
    @Test func rowsComeOutInOrderAndEndWhenNoMoreWillCome() async {
        let feed = CopyFeed(table: "result", columns: ["id"])
        #expect(feed.add(ByteBuffer(string: "1\n")))
        #expect(feed.add(ByteBuffer(string: "2\n")))
        feed.end()
        #expect(!feed.add(ByteBuffer(string: "3\n")))
        #expect(await feed.take().map { String(buffer: $0) } == "1\n")
        #expect(await feed.take().map { String(buffer: $0) } == "2\n")
        #expect(await feed.take() == nil)
    }

    @Test func aWriterTooFarAheadWaitsUntilRowsAreTaken() async throws {
        let feed = CopyFeed(table: "result", columns: ["id"], limit: 4)
        #expect(feed.add(ByteBuffer(string: "12345\n")))
        #expect(!feed.isWriterWaiting)
        async let added = onOwnThread { feed.add(ByteBuffer(string: "6\n")) }
        try await Self.until { feed.isWriterWaiting }
        #expect(await feed.take().map { String(buffer: $0) } == "12345\n")
        #expect(try await added)
        #expect(!feed.isWriterWaiting)
        #expect(await feed.take().map { String(buffer: $0) } == "6\n")
    }

    @Test func aCopyThatIsOverReleasesAWaitingWriterAndRefusesRows() async throws {
        let feed = CopyFeed(table: "result", columns: ["id"], limit: 4)
        #expect(feed.add(ByteBuffer(string: "12345\n")))
        async let added = onOwnThread { feed.add(ByteBuffer(string: "6\n")) }
        try await Self.until { feed.isWriterWaiting }
        feed.close()
        #expect(try await added == false)
        #expect(await feed.take().map { String(buffer: $0) } == "12345\n")
        #expect(await feed.take() == nil)
    }

    @Test func aWaitingTakerGetsRowsAsTheyComeAndTheEnd() async {
        let feed = CopyFeed(table: "result", columns: ["id"])
        async let first = feed.take()
        Thread.detachNewThread { _ = feed.add(ByteBuffer(string: "7\n")) }
        #expect(await first.map { String(buffer: $0) } == "7\n")
        async let last = feed.take()
        Thread.detachNewThread { feed.end() }
        #expect(await last == nil)
    }

    /// Waits, yielding, until `condition` holds; fails after 10 s.
    static func until(_ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            try #require(Date() < deadline, "the writer never waited")
            await Task.yield()
        }
    }
}
