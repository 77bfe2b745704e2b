import Foundation

/// Threads that each keep a core busy beside the tests (`verify --stress N`): contention makes a
/// timing failure likelier to show.
package final class BusyThreads: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var completedRounds = 0
    private var threads: [Thread] = []

    /// Starts `count` busy threads; none for 0.
    package init(count: Int) {
        threads = (0..<max(0, count)).map { _ in Thread { [self] in spin() } }
        for thread in threads { thread.start() }
    }

    /// Stops them; they end within a few milliseconds.
    package func stop() {
        lock.withLock { running = false }
    }

    /// The threads not yet ended.
    package var liveThreads: Int { threads.count { !$0.isFinished } }

    /// Rounds of work done so far, by every thread: each about a hundred thousand multiplications.
    package var rounds: Int { lock.withLock { completedRounds } }

    private func spin() {
        var state: UInt64 = 1
        while lock.withLock({ running }) {
            // Work the optimiser cannot drop, between looks at the flag.
            for _ in 0..<100_000 { state = state &* 6_364_136_223_846_793_005 &+ 1 }
            lock.withLock { completedRounds += state == 0 ? 0 : 1 }
        }
    }
}
