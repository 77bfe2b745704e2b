/// When an upload is tried again: after network errors and 5xx, 408 and 429 answers, with a
/// doubling delay; other answers are final.
public struct ResendPolicy: Sendable, Equatable {
    /// The delays before each retry, in seconds.
    public var delays: [Double]

    /// Creates a policy that retries once per delay.
    /// - Parameter delays: the delay before each retry, in seconds; five from half a second, doubling,
    ///   by default.
    public init(delays: [Double] = [0.5, 1, 2, 4, 8]) {
        self.delays = delays
    }

    /// `count` retries, the first after `first` seconds, each delay twice the one before.
    ///
    /// The doubling stops at 2^20 times `first`: every later retry waits that long.
    ///
    /// - Parameters:
    ///   - count: how many retries; none when it is 0 or less.
    ///   - first: the delay before the first retry, in seconds.
    public init(retries count: Int, first: Double = 0.5) {
        self.delays = (0..<max(0, count)).map { first * Double(1 << min($0, 20)) }
    }

    /// Whether an HTTP status is worth another try.
    /// - Parameter status: an HTTP status code.
    /// - Returns: `true` for 408, 429 and any status of 500 or more.
    public static func isRetryable(status: Int) -> Bool {
        status >= 500 || status == 408 || status == 429
    }
}
