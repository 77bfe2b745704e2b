import Foundation
import NIOCore

/// Rows handed from the thread that writes them to a `COPY` under way, which takes them as they
/// come: the database stores rows while the next ones are read. The writing thread waits while
/// more than `limit` bytes are ahead of the database.
final class CopyFeed: @unchecked Sendable {
    let table: String
    let columns: [String]
    private let limit: Int

    private let condition = NSCondition()
    private var chunks = CircularBuffer<ByteBuffer>()
    private var buffered = 0
    private var writerWaits = false
    /// No more rows will come.
    private var ended = false
    /// The `COPY` is over and takes no more.
    private var closed = false
    private var waiting: CheckedContinuation<ByteBuffer?, Never>?

    init(table: String, columns: [String], limit: Int = 4 << 20) {
        self.table = table
        self.columns = columns
        self.limit = limit
    }

    /// Hands rows over, waiting while the `COPY` is too far behind; `false` when it is over.
    func add(_ rows: ByteBuffer) -> Bool {
        condition.lock()
        while buffered > limit && !closed {
            writerWaits = true
            condition.wait()
        }
        writerWaits = false
        guard !closed, !ended else {
            condition.unlock()
            return false
        }
        if let waiting {
            self.waiting = nil
            condition.unlock()
            waiting.resume(returning: rows)
            return true
        }
        chunks.append(rows)
        buffered += rows.readableBytes
        condition.unlock()
        return true
    }

    /// The next rows; `nil` once every row is taken and no more will come.
    func take() async -> ByteBuffer? {
        await withCheckedContinuation { continuation in
            condition.lock()
            if let rows = chunks.popFirst() {
                buffered -= rows.readableBytes
                condition.broadcast()
                condition.unlock()
                continuation.resume(returning: rows)
            } else if ended || closed {
                condition.unlock()
                continuation.resume(returning: nil)
            } else {
                waiting = continuation
                condition.unlock()
            }
        }
    }

    /// Whether the writer is waiting for the `COPY` to catch up.
    var isWriterWaiting: Bool {
        condition.withLock { writerWaits }
    }

    /// No more rows will come: the `COPY` ends once it has taken those it has.
    func end() {
        condition.lock()
        ended = true
        let waiting = self.waiting
        self.waiting = nil
        condition.unlock()
        waiting?.resume(returning: nil)
    }

    /// The `COPY` is over, done or failed: a writer waiting for room goes on, and rows are refused.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        let waiting = self.waiting
        self.waiting = nil
        condition.unlock()
        waiting?.resume(returning: nil)
    }
}
