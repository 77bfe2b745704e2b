import CompressNIO
import Foundation
import Hummingbird

/// Writes a request body to a temporary file as it arrives, decompressing gzip on the way, and
/// stops with 413 as soon as it grows past the limit: no body is ever held whole in memory.
enum BodySpool {
    static func write(_ body: RequestBody, gzip: Bool, limit: Int) async throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "testledger-upload-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: url.path, contents: nil)
        do {
            let file = try FileHandle(forWritingTo: url)
            defer { try? file.close() }
            var written = 0
            func keep(_ buffer: ByteBuffer) throws {
                written += buffer.readableBytes
                guard written <= limit else {
                    throw HTTPError(.contentTooLarge, message: "the body is larger than the \(limit) byte limit")
                }
                try file.write(contentsOf: Data(buffer.readableBytesView))
            }
            let decompressor = gzip ? CompressionAlgorithm.gzip().decompressor : nil
            if let decompressor {
                decompressor.window = ByteBufferAllocator().buffer(capacity: 64 << 10)
                try decompressor.startStream()
            }
            defer { try? decompressor?.finishStream() }
            for try await chunk in body {
                guard let decompressor else {
                    try keep(chunk)
                    continue
                }
                var input = chunk
                do {
                    try input.decompressStream(with: decompressor) { try keep($0) }
                } catch let error as HTTPError {
                    throw error
                } catch {
                    throw HTTPError(.badRequest, message: "the gzip body is corrupt: \(error)")
                }
            }
            return url
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
    }
}
