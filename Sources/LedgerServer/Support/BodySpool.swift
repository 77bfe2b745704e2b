import Foundation
import Hummingbird

/// Writes a request body to a temporary file as it arrives, decompressing gzip on the way, and
/// stops with 413 as soon as it grows past the limit: no body is ever held whole in memory.
enum BodySpool {
    static func write(_ body: RequestBody, gzip: Bool, limit: Int) async throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "testledger-upload-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
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
                try Self.inflating { try inflater.inflate(chunk, into: keep) }
            }
            try Self.inflating { try inflater?.end(into: keep) }
            return url
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
    }

    private static func inflating(_ work: () throws -> Void) throws {
        do {
            try work()
        } catch let error as HTTPError {
            throw error
        } catch GzipInflater.Failure.cutShort {
            throw HTTPError(
                .badRequest,
                message: "the gzip body is cut short: it ends inside its gzip stream; send the whole body again")
        } catch {
            throw HTTPError(.badRequest, message: "the gzip body is corrupt: \(error)")
        }
    }
}
