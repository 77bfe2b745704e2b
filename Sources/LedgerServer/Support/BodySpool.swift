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
            let inflater = gzip ? try GzipInflater() : nil
            defer { inflater?.finish() }
            var received = 0
            for try await chunk in body {
                received += chunk.readableBytes
                guard let inflater else {
                    try keep(chunk)
                    continue
                }
                // Compressed bytes count too: empty deflate blocks could go on for ever unseen.
                guard received <= limit else {
                    throw HTTPError(.contentTooLarge, message: "the body is larger than the \(limit) byte limit")
                }
                do {
                    try inflater.inflate(chunk) { try keep($0) }
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

/// Inflates a gzip body chunk by chunk through a bounded window. Members one after the other
/// (`cat a.gz b.gz`) are read in turn, as `gzip -d` reads them.
final class GzipInflater {
    private let decompressor: any NIODecompressor
    private var window = ByteBufferAllocator().buffer(capacity: 64 << 10)

    init() throws {
        decompressor = CompressionAlgorithm.gzip().decompressor
        try decompressor.startStream()
    }

    func finish() {
        try? decompressor.finishStream()
    }

    func inflate(_ chunk: ByteBuffer, into keep: (ByteBuffer) throws -> Void) throws {
        var input = chunk
        while input.readableBytes > 0 {
            window.clear()
            do {
                try input.decompressStream(to: &window, with: decompressor)
            } catch let error as CompressNIOError where error == .bufferOverflow {
                // The window is full: keep it and go on.
            }
            if window.readableBytes > 0 { try keep(window) }
            // Input left while the window has room: the member has ended and another begins.
            if input.readableBytes > 0 && window.writableBytes > 0 {
                try decompressor.resetStream()
            }
        }
    }
}
