import Foundation

/// Reads a file or a buffer line by line in fixed-size chunks, so memory stays bounded
/// whatever the input's size. Lines end at `\n`; a trailing `\r` is dropped.
public struct LineReader: Sequence {
    public enum Input: Sendable {
        case file(URL)
        case data(Data)
    }

    /// The longest line accepted; a longer one throws ``LineTooLong``.
    public var maximumLineLength: Int
    private let input: Input

    /// The default for ``maximumLineLength``: 64 MiB.
    public static let defaultMaximumLineLength = 64 << 20

    public init(_ input: Input, maximumLineLength: Int = defaultMaximumLineLength) {
        self.input = input
        self.maximumLineLength = maximumLineLength
    }

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
        public var line: Int
    }

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
            buffer = buffer[start...] + chunk
            start = buffer.startIndex
        }
    }
}
