import Foundation

/// Runs a producer on a thread of its own, a bounded amount ahead of the one taking what it
/// makes: producing and taking then use two cores while memory stays bounded.
///
/// The taker gets the items in order, then the end (`nil`), or the error the producer threw
/// once every item before it was taken. Items wait while their total cost is below `limit`;
/// past it the producer waits.
public final class BackgroundProducer<Item: Sendable, Failure: Error>: @unchecked Sendable {
    private enum Slot {
        case item(Item)
        case end
        case failure(Failure)
    }

    private let limit: Int
    private let cost: @Sendable (Item) -> Int

    // Shared with the producing thread, under `condition`.
    private let condition = NSCondition()
    private var slots: [Slot] = []
    /// Where the oldest slot not taken is in `slots`.
    private var head = 0
    private var queuedCost = 0
    private var cancelled = false

    // The taker's own.
    /// The end or the failure, once taken: every later call gives it again.
    private var finished: Slot?

    /// Starts `produce` on a thread of its own at once.
    /// - Parameters:
    ///   - name: the thread's name, for debuggers.
    ///   - limit: how much may wait to be taken, in `cost` units.
    ///   - cost: what one item counts towards `limit`; 1 by default.
    ///   - produce: makes the items and passes each to `send`, which waits while `limit` is
    ///     reached and returns `false` once the taker has cancelled: then the producer should
    ///     stop.
    public init(
        name: String? = nil, limit: Int, cost: @escaping @Sendable (Item) -> Int = { _ in 1 },
        produce: @escaping @Sendable (_ send: @escaping (Item) -> Bool) throws(Failure) -> Void
    ) {
        self.limit = limit
        self.cost = cost
        let thread = Thread { [self] in
            do throws(Failure) {
                try produce { self.push(.item($0)) }
                _ = push(.end)
            } catch {
                _ = push(.failure(error))
            }
        }
        thread.name = name
        thread.stackSize = 1 << 22
        thread.start()
    }

    /// The next item, waiting for it; `nil` once the producer has ended.
    /// - Returns: the next item; `nil` once the producer has ended, and at every later call.
    /// - Throws: the error the producer threw, after every item it sent before.
    public func next() throws(Failure) -> Item? {
        let slot = finished ?? take()
        switch slot {
        case .item(let item):
            return item
        case .end:
            finished = slot
            return nil
        case .failure(let error):
            finished = slot
            throw error
        }
    }

    /// Lets the producer go without taking the rest: its next `send` returns `false`.
    ///
    /// Call ``next()`` no more afterwards, unless it already returned `nil` or threw: nothing more
    /// comes, not even the end, so it would wait for ever.
    public func cancel() {
        condition.lock()
        cancelled = true
        slots.removeAll()
        head = 0
        queuedCost = 0
        condition.broadcast()
        condition.unlock()
    }

    /// Queues `slot`, waiting while the items queued reach the limit; `false` once cancelled.
    private func push(_ slot: Slot) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if case .item = slot {
            while queuedCost >= limit, !cancelled { condition.wait() }
        }
        guard !cancelled else { return false }
        if case .item(let item) = slot { queuedCost += cost(item) }
        slots.append(slot)
        condition.broadcast()
        return true
    }

    private func take() -> Slot {
        condition.lock()
        defer { condition.unlock() }
        while head == slots.count { condition.wait() }
        let slot = slots[head]
        head += 1
        // Dropping the taken slots once they are half the array moves each slot at most once.
        if head * 2 >= slots.count {
            slots.removeFirst(head)
            head = 0
        }
        if case .item(let item) = slot {
            queuedCost -= cost(item)
            condition.broadcast()
        }
        return slot
    }
}
