/// How one attempt of a test ended.
public enum Outcome: String, Codable, Sendable, CaseIterable {
    /// The attempt passed.
    case passed
    /// An expectation in the attempt failed.
    case failed
    /// The attempt was skipped and did not run to a verdict.
    case skipped
    /// The attempt ended with an error rather than a failed expectation.
    case error
    /// The attempt failed as it was declared to; counts as a pass.
    case expectedFailure
    /// The attempt never finished: its process crashed or was killed.
    case crashed

    /// Whether this outcome counts against the test (failed, error or crashed).
    public var isFailure: Bool {
        switch self {
        case .failed, .error, .crashed: true
        case .passed, .skipped, .expectedFailure: false
        }
    }

    /// Whether this outcome counts as a pass for flakiness (passed or expected failure).
    public var isPass: Bool { self == .passed || self == .expectedFailure }
}

/// How a run ended, as its `run.end` says or as the store finds it.
public enum RunOutcome: String, Codable, Sendable, CaseIterable {
    /// Every test that counts passed.
    case passed
    /// Some test failed.
    case failed
    /// The run ended without saying how it went.
    case finished
    /// The run was cut short: its runner was killed or crashed before `run.end`.
    case interrupted
}

/// The layer of the test pyramid a test belongs to.
public enum Layer: String, Codable, Sendable, CaseIterable, Comparable {
    /// The pyramid's base: tests of small parts in isolation.
    case unit
    /// The middle: tests of several parts together.
    case integration
    /// The top: tests that drive the user interface.
    case ui

    /// The layer's height in the pyramid: unit 0, integration 1, ui 2.
    public var rank: Int {
        switch self {
        case .unit: 0
        case .integration: 1
        case .ui: 2
        }
    }

    /// Orders layers by ``rank``, unit first.
    ///
    /// - Parameters:
    ///   - lhs: a layer.
    ///   - rhs: another layer.
    /// - Returns: whether `lhs` lies below `rhs` in the pyramid.
    public static func < (lhs: Layer, rhs: Layer) -> Bool { lhs.rank < rhs.rank }
}

/// What a retry-based predicate waits for.
public enum PredicateExpectation: String, Codable, Sendable {
    /// Waits for the condition to become true.
    case holds
    /// Waits for the condition to become false; not the same as `!holds`.
    case doesntHold
}
