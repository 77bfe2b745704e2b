import Foundation

/// What quarantine does to a test where it runs.
public enum QuarantineMode: String, Codable, Hashable, Sendable, CaseIterable {
    /// It runs and its result is recorded, but its failure does not fail the build.
    case mute
    /// It is not run.
    case skip
}

/// A test in quarantine: which, how, by whom, why, and until when.
public struct QuarantinedTest: Codable, Hashable, Sendable {
    /// The configuration that stands for every configuration.
    public static let everyConfiguration = "*"

    /// The project the test belongs to.
    public var project: String
    /// The test's stable id.
    public var test: String
    /// The configuration it applies to; ``everyConfiguration`` for all of them.
    public var configuration: String
    /// Muted or skipped.
    public var mode: QuarantineMode
    /// Why, in the words of whoever quarantined it.
    public var reason: String
    /// Who quarantined it; `testledger` for the automatic policy.
    public var by: String
    /// Since when, in seconds since 1970.
    @ISO8601Time public var since: Double
    /// When the quarantine ends by itself, in seconds since 1970; `nil` until removed.
    @OptionalISO8601Time public var until: Double?
    /// Whether the automatic policy put it there (and may release it).
    public var automatic: Bool

    /// Creates an entry.
    public init(
        project: String, test: String, configuration: String = everyConfiguration, mode: QuarantineMode,
        reason: String, by: String, since: Double, until: Double? = nil, automatic: Bool = false
    ) {
        self.project = project
        self.test = test
        self.configuration = configuration
        self.mode = mode
        self.reason = reason
        self.by = by
        self.since = since
        self.until = until
        self.automatic = automatic
    }

    /// Whether it is in force at `time` (seconds since 1970): not yet past ``until``.
    public func isActive(at time: Double) -> Bool { until.map { time < $0 } ?? true }

    /// Whether it applies to a run of `configuration` (empty when the run named none).
    public func applies(to configuration: String) -> Bool {
        self.configuration == Self.everyConfiguration || self.configuration == configuration
    }
}

/// One change to the quarantine, as the audit trail keeps it.
public struct QuarantineChange: Codable, Hashable, Sendable {
    /// What the change did.
    public enum Action: String, Codable, Hashable, Sendable {
        /// Put a test in quarantine.
        case add
        /// Changed the mode, reason or expiry of a test already there.
        case change
        /// Took a test out.
        case remove
    }

    /// The change's place in the trail: later changes have higher ids.
    public var id: Int64
    /// The project.
    public var project: String
    /// The test's stable id.
    public var test: String
    /// The configuration; ``QuarantinedTest/everyConfiguration`` for all of them.
    public var configuration: String
    /// What was done.
    public var action: Action
    /// The mode after the change; `nil` for a removal.
    public var mode: QuarantineMode?
    /// Why.
    public var reason: String
    /// Who; `testledger` for the automatic policy.
    public var by: String
    /// When, in seconds since 1970.
    @ISO8601Time public var at: Double
    /// The expiry after the change, in seconds since 1970.
    @OptionalISO8601Time public var until: Double?
    /// Whether the automatic policy made the change.
    public var automatic: Bool
    /// What an automatic change was based on (JSON); `nil` for a person's.
    public var evidence: String?

    /// Creates a change.
    public init(
        id: Int64, project: String, test: String, configuration: String, action: Action, mode: QuarantineMode?,
        reason: String, by: String, at: Double, until: Double? = nil, automatic: Bool = false,
        evidence: String? = nil
    ) {
        self.id = id
        self.project = project
        self.test = test
        self.configuration = configuration
        self.action = action
        self.mode = mode
        self.reason = reason
        self.by = by
        self.at = at
        self.until = until
        self.automatic = automatic
        self.evidence = evidence
    }
}

/// A time in seconds since 1970 that JSON gives in ISO 8601, as every report does.
@propertyWrapper
public struct ISO8601Time: Codable, Hashable, Sendable {
    public var wrappedValue: Double

    public init(wrappedValue: Double) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = try? Date(text, strategy: .iso8601) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected an ISO 8601 time, such as 2026-12-31T00:00:00Z")
        }
        wrappedValue = date.timeIntervalSince1970
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601(wrappedValue))
    }
}

/// An optional ``ISO8601Time``: left out of JSON when `nil`.
@propertyWrapper
public struct OptionalISO8601Time: Codable, Hashable, Sendable {
    public var wrappedValue: Double?

    public init(wrappedValue: Double?) { self.wrappedValue = wrappedValue }

    public init(from decoder: any Decoder) throws {
        wrappedValue = try ISO8601Time(from: decoder).wrappedValue
    }

    public func encode(to encoder: any Encoder) throws {
        try wrappedValue.map(ISO8601Time.init(wrappedValue:))?.encode(to: encoder)
    }
}

extension KeyedDecodingContainer {
    public func decode(_ type: OptionalISO8601Time.Type, forKey key: Key) throws -> OptionalISO8601Time {
        try decodeIfPresent(type, forKey: key) ?? OptionalISO8601Time(wrappedValue: nil)
    }
}

extension KeyedEncodingContainer {
    public mutating func encode(_ value: OptionalISO8601Time, forKey key: Key) throws {
        if value.wrappedValue != nil { try encodeIfPresent(value, forKey: key) }
    }
}
