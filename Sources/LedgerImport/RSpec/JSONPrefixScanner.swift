import Foundation

/// Reads the first tokens of a JSON document from a prefix of it, for format detection
/// (``RSpecImporter/looksLikeRSpec(prefix:)``, ``XCResultImporter/looksLikeXCResult(prefix:)``).
struct JSONPrefixScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ data: Data) {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        self.bytes = bytes
    }

    /// Skips white space, then `character` if it is next.
    /// - Returns: whether it was.
    mutating func take(_ character: Character) -> Bool {
        skipSpace()
        guard index < bytes.count, let ascii = character.asciiValue, bytes[index] == ascii else { return false }
        index += 1
        return true
    }

    /// Skips white space, then reads a string if one is next (escapes kept as written).
    mutating func string() -> String? {
        guard take("\"") else { return nil }
        var text: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") { return String(decoding: text, as: UTF8.self) }
            if byte == UInt8(ascii: "\\"), index < bytes.count {
                text.append(byte)
                text.append(bytes[index])
                index += 1
            } else {
                text.append(byte)
            }
        }
        return nil
    }

    private mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }
}
