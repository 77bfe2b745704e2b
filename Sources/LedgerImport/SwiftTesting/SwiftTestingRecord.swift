/// One line of Swift Testing's event stream, decoded down to the fields the importer uses.
///
/// Every line is `{"kind": …, "payload": {…}, "version": …}`; `kind` is `test` (a suite or test
/// function, sent before the events that name it) or `event`. Unknown kinds are kept as
/// ``Body/unknown`` so the importer can skip them, as the stream's rules say.
struct SwiftTestingRecord: Decodable {
    /// What a record carries.
    enum Body {
        case test(Test)
        case event(Event)
        /// A record kind this importer does not know.
        case unknown
    }

    var version: SwiftTestingVersion
    var body: Body

    private enum CodingKeys: String, CodingKey {
        case version, kind, payload
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(SwiftTestingVersion.self, forKey: .version)
        let kind = try container.decode(String.self, forKey: .kind)
        guard container.contains(.payload) else {
            throw DecodingError.keyNotFound(
                CodingKeys.payload,
                DecodingError.Context(codingPath: [], debugDescription: "no payload"))
        }
        switch kind {
        case "test": body = .test(try container.decode(Test.self, forKey: .payload))
        case "event": body = .event(try container.decode(Event.self, forKey: .payload))
        default: body = .unknown
        }
    }
}
