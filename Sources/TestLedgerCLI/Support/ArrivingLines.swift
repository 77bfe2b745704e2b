import Foundation

/// Standard input's lines, each with the time its line break arrived.
///
/// A thread of its own reads the input and stamps it, so a spec's duration (the time between
/// two lines) does not take in the time the reader spends storing what came before.
final class ArrivingLines: @unchecked Sendable {
    private let condition = NSCondition()
    private var chunks: [(data: Data, at: Double)] = []
    private var ended = false
    private var buffer = Data()
    private static let chunksAhead = 64
    /// When the last chunk came: every line break in `buffer` came with it.
    private var bufferAt = 0.0

    init(descriptor: Int32 = STDIN_FILENO) {
        let thread = Thread { [self] in read(descriptor) }
        thread.name = "testledger.stdin"
        thread.start()
    }

    /// The next line, without its line break, or `nil` once the input has ended.
    func next() -> (line: Substring, at: Double)? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                var end = newline
                if end > buffer.startIndex, buffer[end - 1] == 0x0D { end -= 1 }
                let line = String(decoding: buffer[buffer.startIndex..<end], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return (Substring(line), bufferAt)
            }
            guard let chunk = take() else {
                guard !buffer.isEmpty else { return nil }
                let line = String(decoding: buffer, as: UTF8.self)
                buffer.removeAll()
                return (Substring(line), bufferAt)
            }
            buffer.append(chunk.data)
            bufferAt = chunk.at
        }
    }

    /// Waits for the next chunk the reader stamped; `nil` when the input has ended.
    private func take() -> (data: Data, at: Double)? {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && !ended { condition.wait() }
        guard !chunks.isEmpty else { return nil }
        condition.broadcast()
        return chunks.removeFirst()
    }

    private func read(_ descriptor: Int32) {
        var bytes = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = bytes.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            let at = Date().timeIntervalSince1970
            condition.lock()
            // A slow reader holds back a fast writer here rather than buffering the whole input.
            while chunks.count >= Self.chunksAhead { condition.wait() }
            if count > 0 { chunks.append((Data(bytes[0..<count]), at)) } else { ended = true }
            condition.broadcast()
            condition.unlock()
            if count <= 0 { return }
        }
    }
}
