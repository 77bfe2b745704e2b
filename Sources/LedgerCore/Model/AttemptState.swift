/// Where one attempt of a test stands: still running, or ended with an outcome.
///
/// In JSON it is one string: the outcome's name, or `running`.
public enum AttemptState: Hashable, Sendable, CustomStringConvertible {
    /// The attempt began and has not ended.
    case running
    /// The attempt ended with this outcome.
    case ended(Outcome)

    /// The state of an attempt whose stored outcome is `outcome`: running while there is none.
    /// - Parameter outcome: the stored outcome; `nil` while the attempt runs.
    public init(_ outcome: Outcome?) {
        self = outcome.map(AttemptState.ended) ?? .running
    }

    /// The outcome, once the attempt has ended.
    public var outcome: Outcome? {
        if case .ended(let outcome) = self { outcome } else { nil }
    }

    /// The outcome's raw value, or `running`: the state's JSON form.
    public var description: String { outcome?.rawValue ?? "running" }
}

extension AttemptState: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        if text == "running" {
            self = .running
        } else if let outcome = Outcome(rawValue: text) {
            self = .ended(outcome)
        } else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "`\(text)` is not an outcome nor `running`"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
