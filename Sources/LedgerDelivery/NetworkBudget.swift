import Foundation

/// The time one command may spend waiting on the network, all its calls together, and what it
/// could not reach: `record` asks it how long each call may wait, so that a server that accepts a
/// connection and never answers costs the job at most the budget, and `--strict` asks it what
/// was skipped.
public final class NetworkBudget: @unchecked Sendable {
    /// The seconds all calls may wait together.
    public let seconds: Double
    private let clock: @Sendable () -> Double
    private let lock = NSLock()
    private var spent = 0.0
    private var unreached: [String] = []

    /// - Parameters:
    ///   - seconds: the seconds all calls may wait together.
    ///   - clock: seconds from any fixed point; the system's monotonic clock by default.
    public init(seconds: Double, clock: @escaping @Sendable () -> Double = NetworkBudget.monotonicSeconds) {
        self.seconds = seconds
        self.clock = clock
    }

    /// The seconds left, never less than 0.
    public var remaining: Double { lock.withLock { max(0, seconds - spent) } }

    /// Runs `call` with the seconds it may wait (its own bound `wanted`, or what is left when
    /// less) and charges the time it took; without calling it, `nil` when the budget is spent
    /// (less than ``leastWorthAsking`` is left: no answer comes that fast).
    public func spend<T>(upTo wanted: Double, _ call: (Double) -> T) -> T? {
        let allowed = min(wanted, remaining)
        guard allowed >= Self.leastWorthAsking else { return nil }
        let start = clock()
        defer {
            let took = max(0, clock() - start)
            lock.withLock { spent += took }
        }
        return call(allowed)
    }

    /// The least time a call is made with, in seconds.
    public static let leastWorthAsking = 0.1

    /// Keeps `what` among what could not be reached (or was skipped for want of time).
    public func unreached(_ what: String) {
        lock.withLock { unreached.append(what) }
    }

    /// What could not be reached, in the order it was noted.
    public var failures: [String] { lock.withLock { unreached } }

    /// Why a call was not made: the budget is spent.
    public var spentMessage: String {
        "skipped: the \(Self.format(seconds)) s the command may wait on the network are spent (--network-timeout)"
    }

    /// Seconds of the system's monotonic clock.
    public static func monotonicSeconds() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
