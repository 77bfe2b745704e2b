/// The `version` of a Swift Testing record: the integer `0` up to Swift 6.2, a `"major.minor.patch"`
/// string (e.g. `"6.3.0"`) from Swift 6.3 on.
enum SwiftTestingVersion: Decodable, Hashable {
    /// An integer version: `0`, the schema of Swift 6.0 to 6.2 (and `-1`, Xcode 16's legacy one).
    case integer(Int)
    /// A `"major.minor.patch"` version.
    case release(major: Int, minor: Int, patch: Int)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self = .integer(number)
            return
        }
        let text = (try? container.decode(String.self)) ?? ""
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map {
            Int($0) ?? -1
        }
        guard parts.count == 3, parts.allSatisfy({ $0 >= 0 }) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected 0 or a version string such as \"6.3.0\"")
        }
        self = .release(major: parts[0], minor: parts[1], patch: parts[2])
    }
}
