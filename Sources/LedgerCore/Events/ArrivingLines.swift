import Foundation

/// A stream's lines as they arrive, each with the time its line break arrived.
///
/// A thread of its own reads the stream and stamps what it reads, so the time between two lines
/// is the time between their arrivals, however long the reader spends on each (storing it, say).
/// Lines end at `\n`; a trailing `\r` is dropped.
public final class ArrivingLines: @unchecked Sendable {
    /// How much the reading thread may read ahead of the lines taken: past it, the writer waits.
    public static let maximumBytesAhead = 4 << 20

    private typealias Chunk = (data: Data, at: Double)

    private let chunks: BackgroundProducer<Chunk, Never>
    private var buffer = Data()
    private var start = 0
    /// When the last chunk came: every line break in `buffer` came with it.
    private var bufferAt = 0.0

    /// Starts reading `descriptor` (standard input unless named) until it ends.
    /// - Parameters:
    ///   - descriptor: the stream to read.
    ///   - clock: the time a read is stamped with, in seconds since 1970; tests pass their own.
    public init(
        descriptor: Int32 = STDIN_FILENO,
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        chunks = BackgroundProducer(
            name: "testledger.lines", limit: Self.maximumBytesAhead, cost: { $0.data.count },
            produce: { send in Self.read(descriptor, clock: clock, into: send) })
    }

    /// The next line, without its line break, or `nil` once the stream has ended. A last line
    /// without a line break counts from when its last bytes came.
    /// - Returns: the line, decoded as UTF-8 (invalid bytes replaced), and when its line break
    ///   arrived, in seconds since 1970; `nil` once the stream has ended or a read failed.
    public func next() -> (line: Substring, at: Double)? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                var end = newline
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = newline + 1
                return (Substring(line), bufferAt)
            }
            buffer.removeSubrange(buffer.startIndex..<start)
            start = buffer.startIndex
            guard let chunk = chunks.next() else {
                guard !buffer.isEmpty else { return nil }
                let line = String(decoding: buffer, as: UTF8.self)
                buffer.removeAll()
                return (Substring(line), bufferAt)
            }
            buffer.append(chunk.data)
            bufferAt = chunk.at
        }
    }

    /// Reads `descriptor` to its end, sending each read stamped with when it came.
    private static func read(_ descriptor: Int32, clock: () -> Double, into send: (Chunk) -> Bool) {
        var bytes = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = bytes.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                // A descriptor left non-blocking by whoever shares it: wait until it has bytes.
                var wanted = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&wanted, 1, -1)
                continue
            }
            guard count > 0, send((Data(bytes[0..<count]), clock())) else { return }
        }
    }
}
