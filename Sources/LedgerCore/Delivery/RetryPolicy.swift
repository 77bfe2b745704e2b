/// When an upload is tried again: after network errors and 5xx, 408 and 429 answers, with a
/// doubling delay; other answers are final.
public struct RetryPolicy: Sendable, Equatable {
    /// The delays before each retry, in seconds.
    public var delays: [Double]

    public init(delays: [Double] = [0.5, 1, 2, 4, 8]) {
        self.delays = delays
    }

    /// `count` retries, the first after `first` seconds, each delay twice the one before.
    public init(retries count: Int, first: Double = 0.5) {
        self.delays = (0..<max(0, count)).map { first * Double(1 << min($0, 20)) }
    }

    /// Whether an HTTP status is worth another try.
    public static func isRetryable(status: Int) -> Bool {
        status >= 500 || status == 408 || status == 429
    }
}
