import Foundation

extension SwiftTestingImporter {
    /// Whether `firstLine` is a Swift Testing event stream record.
    ///
    /// A record is a JSON object with a `version` (`0` or `"x.y.z"`), a `kind` of `test` or
    /// `event`, and an object `payload`.
    /// - Parameter firstLine: The input's first line, without its line ending.
    /// - Returns: `true` when the line is such a record.
    public static func looksLikeSwiftTesting(firstLine: Data) -> Bool {
        (try? JSONDecoder().decode(Probe.self, from: firstLine)) != nil
    }

    /// Decodes only when the line has the shape of a record.
    private struct Probe: Decodable {
        private enum CodingKeys: String, CodingKey {
            case version, kind, payload
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            _ = try container.decode(SwiftTestingVersion.self, forKey: .version)
            _ = try container.nestedContainer(keyedBy: CodingKeys.self, forKey: .payload)
            let kind = try container.decode(String.self, forKey: .kind)
            guard kind == "test" || kind == "event" else {
                throw DecodingError.dataCorruptedError(
                    forKey: .kind, in: container, debugDescription: "not a record kind")
            }
        }
    }
}
