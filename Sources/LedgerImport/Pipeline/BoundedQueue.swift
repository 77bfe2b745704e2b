import Foundation

/// A queue between one producing thread and one consuming thread that holds at most `depth`
/// items, so a fast producer waits instead of filling memory.
final class BoundedQueue<Item>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Item] = []
    private var cancelled = false
    private let depth: Int

    init(depth: Int) {
        self.depth = depth
    }

    /// Adds an item, waiting while the queue is full; `false` once the consumer has cancelled.
    func push(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= depth, !cancelled { condition.wait() }
        guard !cancelled else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// Takes the oldest item, waiting for one.
    func pop() -> Item {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty { condition.wait() }
        condition.broadcast()
        return items.removeFirst()
    }

    /// Lets the producer go: it stops at its next push.
    func cancel() {
        condition.lock()
        cancelled = true
        items.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
