import Foundation
import LedgerDelivery
import LedgerTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct NetworkBudgetTests {
    /// A clock the test moves by hand.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var now = 100.0
        func read() -> Double { lock.withLock { now } }
        func advance(_ seconds: Double) { lock.withLock { now += seconds } }
    }

    @Test func eachCallWaitsItsOwnBoundOrWhatIsLeftAndNoneOnceSpent() {
        let clock = Clock()
        let budget = NetworkBudget(seconds: 10, clock: clock.read)
        #expect(
            budget.spend(upTo: 4) { allowed in
                clock.advance(4); return allowed
            } == 4)
        #expect(budget.remaining == 6)
        #expect(
            budget.spend(upTo: 30) { allowed in
                clock.advance(6); return allowed
            } == 6, "what is left")
        var called = false
        #expect(budget.spend(upTo: 30) { _ in called = true } == nil)
        #expect(!called, "a spent budget makes no call")
        #expect(budget.spentMessage.contains("the 10 s the command may wait on the network are spent"))
    }

    @Test func aQuickFailureCostsOnlyTheTimeItTook() {
        let clock = Clock()
        let budget = NetworkBudget(seconds: 10, clock: clock.read)
        for _ in 1...5 { _ = budget.spend(upTo: 10) { _ in clock.advance(0.5) } }
        #expect(budget.remaining == 7.5)
    }

    @Test func whatCouldNotBeReachedIsKeptInOrder() {
        let budget = NetworkBudget(seconds: 1)
        budget.unreached("the quarantine")
        budget.unreached("the check run")
        #expect(budget.failures == ["the quarantine", "the check run"])
    }

    /// A port that takes the connection and never answers costs a call what is left of the
    /// budget, exactly (URLSession alone would wait whole seconds), and a spent budget sends nothing.
    @Test func aServerThatNeverAnswersCostsWhatIsLeftOfTheBudget() throws {
        let silent = try SilentPort()
        defer { silent.stopListening() }
        let request = URLRequest(url: try #require(URL(string: "\(silent.address)/api")), timeoutInterval: 30)
        let budget = NetworkBudget(seconds: 0.3)
        let start = Date()
        guard case .failure(let error) = HTTPExchange.send(request, budget: budget) else {
            Issue.record("a silent server gave an answer")
            return
        }
        let waited = Date().timeIntervalSince(start)
        #expect(error.status == nil && error.message != budget.spentMessage, "\(error)")
        // Whatever the machine's load: not the request's own 30 s timeout.
        #expect(waited >= 0.25 && waited < 10, "waited \(waited) s on a budget of 0.3 s")
        guard case .failure(let skipped) = HTTPExchange.send(request, budget: budget) else {
            Issue.record("a spent budget still sent")
            return
        }
        #expect(skipped.message == budget.spentMessage)
    }

    @Test func lessThanATenthOfASecondLeftMakesNoCall() {
        let clock = Clock()
        let budget = NetworkBudget(seconds: 1, clock: clock.read)
        _ = budget.spend(upTo: 5) { _ in clock.advance(0.95) }
        var called = false
        #expect(budget.spend(upTo: 5) { _ in called = true } == nil)
        #expect(!called)
    }
}
