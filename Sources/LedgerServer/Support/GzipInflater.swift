import CompressNIO
import NIOCore

/// Inflates a gzip body chunk by chunk through a bounded window. Members one after the other
/// (`cat a.gz b.gz`) are read in turn, as `gzip -d` reads them; a body that stops inside a
/// member is cut short, even where the cut falls between two lines.
final class GzipInflater {
    enum Failure: Error { case cutShort }

    private let decompressor: any NIODecompressor
    private var window = ByteBufferAllocator().buffer(capacity: 64 << 10)

    init() throws {
        decompressor = CompressionAlgorithm.gzip().decompressor
        try decompressor.startStream()
    }

    deinit {
        try? decompressor.finishStream()
    }

    func inflate(_ chunk: ByteBuffer, into keep: (ByteBuffer) throws -> Void) throws {
        var input = chunk
        while input.readableBytes > 0 {
            let result = try step(&input, into: keep)
            // Input left though the window had room: the member has ended and another begins.
            if result == .ended && input.readableBytes > 0 { try decompressor.resetStream() }
        }
        // Take out now what zlib still holds for this chunk, rather than with the next one.
        while try step(into: keep) == .windowFull {}
    }

    /// Takes out what zlib still holds and checks that the last member reached its end.
    func end(into keep: (ByteBuffer) throws -> Void) throws {
        while true {
            switch try step(into: keep) {
            case .windowFull: continue
            case .needsInput: throw Failure.cutShort
            case .ended: return
            }
        }
    }

    private enum Step { case windowFull, needsInput, ended }

    /// One call to zlib; with no input, `ended` only once the member's trailer has been checked.
    private func step(_ input: inout ByteBuffer, into keep: (ByteBuffer) throws -> Void) throws -> Step {
        window.clear()
        let result: Step
        do {
            try decompressor.streamInflate(from: &input, to: &window)
            result = .ended
        } catch let error as CompressNIOError where error == .bufferOverflow {
            result = .windowFull
        } catch let error as CompressNIOError where error == .inputBufferOverflow {
            result = .needsInput
        }
        let wrote = window.readableBytes
        if wrote > 0 { try keep(window) }
        // zlib answers a call that made progress without reaching the end the same way as the end.
        if result == .ended && input.readableBytes == 0 && wrote > 0 { return .windowFull }
        return result
    }

    private func step(into keep: (ByteBuffer) throws -> Void) throws -> Step {
        var nothing = ByteBufferAllocator().buffer(capacity: 16)
        return try step(&nothing, into: keep)
    }
}
