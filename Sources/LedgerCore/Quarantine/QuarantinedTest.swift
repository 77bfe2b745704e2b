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
    public var since: Double
    /// When the quarantine ends by itself, in seconds since 1970; `nil` until removed.
    public var until: Double?
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
    public var at: Double
    /// The expiry after the change, in seconds since 1970.
    public var until: Double?
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

// Times are ISO 8601 in JSON, as in every report.
extension QuarantinedTest {
    private enum CodingKeys: String, CodingKey {
        case project, test, configuration, mode, reason, by, since, until, automatic
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            project: try container.decode(String.self, forKey: .project),
            test: try container.decode(String.self, forKey: .test),
            configuration: try container.decode(String.self, forKey: .configuration),
            mode: try container.decode(QuarantineMode.self, forKey: .mode),
            reason: try container.decode(String.self, forKey: .reason),
            by: try container.decode(String.self, forKey: .by),
            since: try container.decodeTime(forKey: .since),
            until: try container.decodeTimeIfPresent(forKey: .until),
            automatic: try container.decode(Bool.self, forKey: .automatic))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(project, forKey: .project)
        try container.encode(test, forKey: .test)
        try container.encode(configuration, forKey: .configuration)
        try container.encode(mode, forKey: .mode)
        try container.encode(reason, forKey: .reason)
        try container.encode(by, forKey: .by)
        try container.encode(iso8601(since), forKey: .since)
        try container.encodeIfPresent(until.map(iso8601), forKey: .until)
        try container.encode(automatic, forKey: .automatic)
    }
}

extension QuarantineChange {
    private enum CodingKeys: String, CodingKey {
        case id, project, test, configuration, action, mode, reason, by, at, until, automatic, evidence
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(Int64.self, forKey: .id),
            project: try container.decode(String.self, forKey: .project),
            test: try container.decode(String.self, forKey: .test),
            configuration: try container.decode(String.self, forKey: .configuration),
            action: try container.decode(Action.self, forKey: .action),
            mode: try container.decodeIfPresent(QuarantineMode.self, forKey: .mode),
            reason: try container.decode(String.self, forKey: .reason),
            by: try container.decode(String.self, forKey: .by),
            at: try container.decodeTime(forKey: .at),
            until: try container.decodeTimeIfPresent(forKey: .until),
            automatic: try container.decode(Bool.self, forKey: .automatic),
            evidence: try container.decodeIfPresent(String.self, forKey: .evidence))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(project, forKey: .project)
        try container.encode(test, forKey: .test)
        try container.encode(configuration, forKey: .configuration)
        try container.encode(action, forKey: .action)
        try container.encodeIfPresent(mode, forKey: .mode)
        try container.encode(reason, forKey: .reason)
        try container.encode(by, forKey: .by)
        try container.encode(iso8601(at), forKey: .at)
        try container.encodeIfPresent(until.map(iso8601), forKey: .until)
        try container.encode(automatic, forKey: .automatic)
        try container.encodeIfPresent(evidence, forKey: .evidence)
    }
}

extension KeyedDecodingContainer {
    fileprivate func decodeTime(forKey key: Key) throws -> Double {
        let text = try decode(String.self, forKey: key)
        guard let date = try? Date(text, strategy: .iso8601) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "expected an ISO 8601 time, such as 2026-12-31T00:00:00Z")
        }
        return date.timeIntervalSince1970
    }

    fileprivate func decodeTimeIfPresent(forKey key: Key) throws -> Double? {
        try contains(key) && !decodeNil(forKey: key) ? decodeTime(forKey: key) : nil
    }
}
