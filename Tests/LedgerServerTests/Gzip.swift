import CompressNIO
import NIOCore

/// gzip for request bodies.
enum Gzip {
    static func compress(_ bytes: [UInt8]) throws -> [UInt8] {
        var buffer = ByteBuffer(bytes: bytes)
        let compressed = try buffer.compress(with: .gzip())
        return Array(compressed.readableBytesView)
    }
}
