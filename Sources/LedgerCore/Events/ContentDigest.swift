import Foundation

/// A 128-bit digest of an input's bytes (two FNV-1a lanes), fed incrementally.
///
/// It names imported runs: the same file imported twice gets the same run id, so it is
/// stored once. It is not a cryptographic hash and guards against accidents only.
public struct ContentDigest: Sendable {
    private var low: UInt64 = 0xcbf2_9ce4_8422_2325
    private var high: UInt64 = 0x6c62_272e_07bb_0142
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The digest of no bytes yet.
    public init() {}

    /// Feeds more bytes.
    /// - Parameter bytes: the input's next bytes, in order.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        var low = self.low
        var high = self.high
        for byte in bytes {
            low = (low ^ UInt64(byte)) &* Self.prime
            high = (high ^ UInt64(byte ^ 0x5A)) &* Self.prime
        }
        self.low = low
        self.high = high
    }

    /// Feeds more bytes, read in place: `Data`'s own iterator costs several times the digest.
    /// - Parameter data: the input's next bytes, in order.
    public mutating func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// The digest as 32 lowercase hexadecimal digits.
    public var hexString: String {
        [high, low].map { lane in
            let digits = String(lane, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }

    /// The digest as a UUID string (version 8, RFC 9562 variant), usable as a run id.
    public var uuidString: String {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index))
            bytes[index + 8] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let uuid = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
        return uuid.uuidString.lowercased()
    }

    /// The id of the run imported from this content into `project`: the same file sent to the
    /// same project twice is one run, through `ingest`, `upload` or the server alike.
    /// - Parameter project: the project the content is imported into.
    /// - Returns: a lowercase UUID string.
    public func runID(project: String) -> String {
        var digest = self
        digest.update(Array(project.utf8))
        return digest.uuidString
    }

    /// The digest of a whole file, read in chunks.
    /// - Parameter url: the file to read.
    /// - Returns: the digest of all the file's bytes.
    /// - Throws: the error opening or reading the file.
    public static func of(file url: URL) throws -> ContentDigest {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var digest = ContentDigest()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            digest.update(chunk)
        }
        return digest
    }
}
