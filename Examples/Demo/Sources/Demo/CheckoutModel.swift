import Foundation

/// The checkout screen's state. Like a real screen, it updates a moment after each action:
/// the spinner shows while the total is recomputed elsewhere.
public final class CheckoutModel: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0
    private var pending = 0
    /// How long recomputing the total takes.
    public var delay: TimeInterval

    public init(delay: TimeInterval = 0.05) {
        self.delay = delay
    }

    public func add(price: Int) {
        lock.withLock { pending += 1 }
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [self] in
            lock.withLock {
                total += price
                pending -= 1
            }
        }
    }

    public var shownTotal: Int { lock.withLock { total } }
    public var isSpinning: Bool { lock.withLock { pending > 0 } }
}
