import Foundation

/// Where the first JSON object of some bytes ends: a report followed by other text on the same
/// output (SimpleCov prints its summary after `rspec --format json`'s object) is read up to there.
enum JSONObjectExtent {
    /// The offset just after the `}` that closes the object `data` opens (after white space and a
    /// byte order mark), or `nil` when `data` opens no object or it never closes.
    static func end(in data: Data) -> Int? {
        data.withUnsafeBytes { bytes in
            var index = 0
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
            var depth = 0
            var inString = false
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if inString {
                    if byte == UInt8(ascii: "\\") {
                        index += 1
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index }
                default: break
                }
            }
            return nil
        }
    }

    /// Whether `data` from `offset` on is only white space.
    static func onlySpace(in data: Data, from offset: Int) -> Bool {
        data[(data.startIndex + offset)...].allSatisfy(isSpace)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { [0x20, 0x09, 0x0A, 0x0D].contains(byte) }
}
