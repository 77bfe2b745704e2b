/// One line of the Ledger event stream: the envelope (`v`, `type`, `run`) and its event.
public struct LedgerRecord: Hashable, Sendable {
    /// The only version of the stream this build speaks.
    public static let version = 1

    /// The run the event belongs to, a UUID string.
    public var run: String
    public var event: LedgerEvent

    public init(run: String, event: LedgerEvent) {
        self.run = run
        self.event = event
    }
}

/// Thrown while decoding a line whose `type` this build does not know.
public struct UnknownEventType: Error, Equatable {
    public var type: String
}

extension LedgerRecord: Codable {
    private enum EnvelopeKeys: String, CodingKey {
        case v, type, run
    }

    public init(from decoder: any Decoder) throws {
        let envelope = try decoder.container(keyedBy: EnvelopeKeys.self)
        let version = try envelope.decode(Int.self, forKey: .v)
        guard version == Self.version else {
            throw DecodingError.dataCorruptedError(
                forKey: .v, in: envelope,
                debugDescription: "unsupported stream version \(version); this build reads v1")
        }
        run = try envelope.decode(String.self, forKey: .run)
        let type = try envelope.decode(String.self, forKey: .type)
        switch type {
        case "run.start": event = .runStart(try LedgerEvent.RunStart(from: decoder))
        case "test.start": event = .testStart(try LedgerEvent.TestStart(from: decoder))
        case "activity.start": event = .activityStart(try LedgerEvent.ActivityStart(from: decoder))
        case "activity.end": event = .activityEnd(try LedgerEvent.ActivityEnd(from: decoder))
        case "capture": event = .capture(try LedgerEvent.Capture(from: decoder))
        case "predicate": event = .predicate(try LedgerEvent.Predicate(from: decoder))
        case "issue": event = .issue(try LedgerEvent.Issue(from: decoder))
        case "test.end": event = .testEnd(try LedgerEvent.TestEnd(from: decoder))
        case "run.end": event = .runEnd(try LedgerEvent.RunEnd(from: decoder))
        default: throw UnknownEventType(type: type)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var envelope = encoder.container(keyedBy: EnvelopeKeys.self)
        try envelope.encode(Self.version, forKey: .v)
        try envelope.encode(event.type, forKey: .type)
        try envelope.encode(run, forKey: .run)
        switch event {
        case .runStart(let payload): try payload.encode(to: encoder)
        case .testStart(let payload): try payload.encode(to: encoder)
        case .activityStart(let payload): try payload.encode(to: encoder)
        case .activityEnd(let payload): try payload.encode(to: encoder)
        case .capture(let payload): try payload.encode(to: encoder)
        case .predicate(let payload): try payload.encode(to: encoder)
        case .issue(let payload): try payload.encode(to: encoder)
        case .testEnd(let payload): try payload.encode(to: encoder)
        case .runEnd(let payload): try payload.encode(to: encoder)
        }
    }
}
