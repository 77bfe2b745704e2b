/// One line of the Ledger event stream: the envelope (`v`, `type`, `run`) and its event.
public struct LedgerRecord: Hashable, Sendable {
    /// The only version of the stream this build speaks.
    public static let version = 1

    /// Where the stream's every type and field is specified, as errors name it.
    public static let specification = "see the event stream's specification, LedgerCore.docc/EventStream.md"

    /// The run the event belongs to, a UUID string.
    public var run: String
    /// The event the line carries.
    public var event: LedgerEvent

    /// Creates a record of `event` in run `run`.
    /// - Parameters:
    ///   - run: the run's id, a UUID string.
    ///   - event: the event.
    public init(run: String, event: LedgerEvent) {
        self.run = run
        self.event = event
    }
}

/// Thrown while decoding a line whose `type` this build does not know.
public struct UnknownEventType: Error, Equatable {
    /// The `type` the line names.
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
        event = try LedgerEvent(type: envelope.decode(String.self, forKey: .type), from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var envelope = encoder.container(keyedBy: EnvelopeKeys.self)
        try envelope.encode(Self.version, forKey: .v)
        try envelope.encode(event.type, forKey: .type)
        try envelope.encode(run, forKey: .run)
        try event.encodeFields(to: encoder)
    }
}
