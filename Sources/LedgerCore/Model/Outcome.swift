/// How one attempt of a test ended.
public enum Outcome: String, Codable, Sendable, CaseIterable {
    case passed
    case failed
    case skipped
    case error
    case expectedFailure
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

/// The layer of the test pyramid a test belongs to.
public enum Layer: String, Codable, Sendable, CaseIterable, Comparable {
    case unit
    case integration
    case ui

    /// The layer's height in the pyramid: unit 0, integration 1, ui 2.
    public var rank: Int {
        switch self {
        case .unit: 0
        case .integration: 1
        case .ui: 2
        }
    }

    public static func < (lhs: Layer, rhs: Layer) -> Bool { lhs.rank < rhs.rank }
}

/// What a retry-based predicate waits for.
public enum PredicateExpectation: String, Codable, Sendable {
    /// Waits for the condition to become true.
    case holds
    /// Waits for the condition to become false; not the same as `!holds`.
    case doesntHold
}
