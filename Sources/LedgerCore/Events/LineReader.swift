import Foundation

/// Reads a file or a buffer line by line in fixed-size chunks, so memory stays bounded
/// whatever the input's size. Lines end at `\n`; a trailing `\r` is dropped.
public struct LineReader: Sequence {
    /// Where the lines come from.
    public enum Input: Sendable {
        /// A file, read 1 MiB at a time. A file that cannot be opened reads as empty, and a read that
        /// fails ends the lines.
        case file(URL)
        /// Bytes already in memory.
        case data(Data)
    }

    /// The longest line accepted; a longer one throws ``LineTooLong``.
    public var maximumLineLength: Int
    private let input: Input

    /// The default for ``maximumLineLength``: 64 MiB.
    public static let defaultMaximumLineLength = 64 << 20

    /// Creates a reader; nothing is read before iteration starts.
    /// - Parameters:
    ///   - input: the file or bytes to read.
    ///   - maximumLineLength: the longest line accepted, in bytes, without its `\n`.
    public init(_ input: Input, maximumLineLength: Int = defaultMaximumLineLength) {
        self.input = input
        self.maximumLineLength = maximumLineLength
    }

    /// Starts reading at the first line; a file is opened here.
    /// - Returns: an iterator over the lines.
    public func makeIterator() -> Iterator {
        switch input {
        case .data(let data):
            return Iterator(handle: nil, buffer: data, maximumLineLength: maximumLineLength)
        case .file(let url):
            return Iterator(
                handle: try? FileHandle(forReadingFrom: url), buffer: Data(),
                maximumLineLength: maximumLineLength)
        }
    }

    /// A line longer than ``LineReader/maximumLineLength``.
    public struct LineTooLong: Error {
        /// The 1-based number of the line that was too long.
        public var line: Int
    }

    /// Hands out the lines in order, until the input ends or a line is longer than the limit.
    public struct Iterator: IteratorProtocol {
        private let handle: FileHandle?
        private var buffer: Data
        private var start: Int
        private var exhausted: Bool
        private let maximumLineLength: Int
        /// The 1-based number of the line last returned.
        public private(set) var lineNumber = 0
        /// Set when a line exceeded the limit; iteration then stops.
        public private(set) var failure: LineTooLong?

        init(handle: FileHandle?, buffer: Data, maximumLineLength: Int) {
            self.handle = handle
            self.buffer = buffer
            self.start = buffer.startIndex
            self.exhausted = handle == nil
            self.maximumLineLength = maximumLineLength
        }

        /// The next line, without its line break (`\n` or `\r\n`).
        /// - Returns: the line's bytes; `nil` at the end of the input, or at a line longer than the limit
        ///   (then ``failure`` is set).
        public mutating func next() -> Data? {
            while failure == nil {
                if let newline = Self.newline(in: buffer, from: start) {
                    guard newline - start <= maximumLineLength else { break }
                    var end = newline
                    if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                    let line = buffer[start..<end]
                    start = newline + 1
                    lineNumber += 1
                    return line
                }
                if buffer.endIndex - start > maximumLineLength { break }
                if exhausted {
                    guard start < buffer.endIndex else { return nil }
                    let line = buffer[start...]
                    start = buffer.endIndex
                    lineNumber += 1
                    return line
                }
                refill()
            }
            failure = failure ?? LineTooLong(line: lineNumber + 1)
            return nil
        }

        /// The index of the next `\n` at or after `start`, found with `memchr`.
        private static func newline(in buffer: Data, from start: Int) -> Int? {
            guard start < buffer.endIndex else { return nil }
            return buffer.withUnsafeBytes { raw -> Int? in
                guard let base = raw.baseAddress else { return nil }
                let offset = start - buffer.startIndex
                guard let found = memchr(base + offset, 0x0A, raw.count - offset) else { return nil }
                return buffer.startIndex + (base.distance(to: UnsafeRawPointer(found)))
            }
        }

        private mutating func refill() {
            let chunk = (try? handle?.read(upToCount: 1 << 20)) ?? nil
            guard let chunk, !chunk.isEmpty else {
                exhausted = true
                return
            }
            ReadCounter.shared.add(chunk.count)
            buffer = buffer[start...] + chunk
            start = buffer.startIndex
        }
    }
}
