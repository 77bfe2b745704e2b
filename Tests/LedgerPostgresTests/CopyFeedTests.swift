import Foundation
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
        let added = Handover<Bool>()
        Thread.detachNewThread { added.finish(.success(feed.add(ByteBuffer(string: "6\n")))) }
        // The second add waits for room, so the first rows are still the next to come.
        #expect(await feed.take().map { String(buffer: $0) } == "12345\n")
        #expect(try added.wait().get())
        #expect(await feed.take().map { String(buffer: $0) } == "6\n")
    }

    @Test func aCopyThatIsOverReleasesAWaitingWriterAndRefusesRows() async throws {
        let feed = CopyFeed(table: "result", columns: ["id"], limit: 4)
        #expect(feed.add(ByteBuffer(string: "12345\n")))
        let added = Handover<Bool>()
        Thread.detachNewThread { added.finish(.success(feed.add(ByteBuffer(string: "6\n")))) }
        feed.close()
        #expect(try added.wait().get() == false)
        #expect(await feed.take().map { String(buffer: $0) } == "12345\n")
        #expect(await feed.take() == nil)
    }

    @Test func aTakerWaitsForRows() async {
        let feed = CopyFeed(table: "result", columns: ["id"])
        async let next = feed.take()
        Thread.detachNewThread { _ = feed.add(ByteBuffer(string: "7\n")) }
        #expect(await next.map { String(buffer: $0) } == "7\n")
    }
}
