import Foundation
import LedgerCore
import LedgerDelivery

/// Turns an input into upload batches in the spool: written to a private folder while the
/// input is read, and moved into the spool only once all of it parsed, so a malformed input
/// leaves nothing to send.
struct SpoolWriter: EventSink {
    private var batcher: EventBatcher
    private let incoming: URL
    private var files: [URL] = []
    private(set) var warnings: [String] = []

    init(spool: SpoolDirectory, targetBytes: Int) throws {
        batcher = EventBatcher(targetBytes: targetBytes)
        incoming = spool.url.appending(path: ".incoming-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: incoming, withIntermediateDirectories: true)
    }

    mutating func consume(_ record: LedgerRecord) throws {
        if let batch = batcher.add(record) { try keep(batch) }
    }

    mutating func warn(_ message: String) {
        warnings.append(message)
    }

    /// Moves the batches into the spool; returns them, in order.
    mutating func commit(to spool: SpoolDirectory) throws -> [URL] {
        if let batch = batcher.finish() { try keep(batch) }
        defer { discard() }
        return try files.map { try spool.add(Array(try Data(contentsOf: $0))) }
    }

    /// Drops what was written.
    func discard() {
        try? FileManager.default.removeItem(at: incoming)
    }

    private mutating func keep(_ batch: [UInt8]) throws {
        let file = incoming.appending(path: String(format: "%06d.ndjson", files.count))
        try Data(batch).write(to: file)
        files.append(file)
    }
}
