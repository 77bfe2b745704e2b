import Foundation
import LedgerCore
import Testing

@Suite struct BackgroundProducerTests {
    struct Failure: Error, Equatable {}

    /// A count the producing thread keeps and the test reads.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        private var stopped = false

        func add() { lock.withLock { count += 1 } }
        func stop() { lock.withLock { stopped = true } }
        var value: Int { lock.withLock { count } }
        var hasStopped: Bool { lock.withLock { stopped } }

        /// Waits up to `seconds` for `condition`; whether it held.
        func wait(seconds: Double, until condition: () -> Bool) -> Bool {
            let deadline = Date(timeIntervalSinceNow: seconds)
            while !condition() {
                guard Date() < deadline else { return false }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return true
        }
    }

    @Test func itemsArriveInOrderThenTheEndEveryTimeItIsAsked() {
        let numbers = BackgroundProducer<Int, Never>(limit: 3) { send in
            for number in 0..<1_000 { _ = send(number) }
        }
        var taken: [Int] = []
        while let number = numbers.next() { taken.append(number) }
        #expect(taken == Array(0..<1_000))
        #expect(numbers.next() == nil)
    }

    @Test func theProducersErrorArrivesAfterItsItemsEveryTimeItIsAsked() throws {
        let numbers = BackgroundProducer<Int, Failure>(limit: 2) { (send) throws(Failure) in
            for number in 0..<10 { _ = send(number) }
            throw Failure()
        }
        var taken: [Int] = []
        let error = #expect(throws: Failure.self) {
            while let number = try numbers.next() { taken.append(number) }
        }
        #expect(error == Failure())
        #expect(taken == Array(0..<10))
        #expect(throws: Failure.self) { try numbers.next() }
    }

    @Test func aProducerWaitsOnceWhatWaitsCostsTheLimit() {
        let sent = Counter()
        let chunks = BackgroundProducer<[UInt8], Never>(limit: 100, cost: { $0.count }) { send in
            for _ in 0..<50 {
                guard send([UInt8](repeating: 0, count: 30)) else { return }
                sent.add()
            }
        }
        #expect(sent.wait(seconds: 10) { sent.value == 4 }, "30 + 30 + 30 is under 100, so a fourth goes in")
        Thread.sleep(forTimeInterval: 0.2)
        #expect(sent.value == 4, "120 is past the limit: the producer waits")
        var count = 0
        while chunks.next() != nil { count += 1 }
        #expect(count == 50)
    }

    @Test func cancellingLetsAWaitingProducerStop() {
        let sent = Counter()
        let numbers = BackgroundProducer<Int, Never>(limit: 1) { send in
            var number = 0
            while send(number) {
                sent.add()
                number += 1
            }
            sent.stop()
        }
        #expect(numbers.next() == 0)
        numbers.cancel()
        #expect(sent.wait(seconds: 10) { sent.hasStopped })
    }
}
