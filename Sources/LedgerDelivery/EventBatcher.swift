import LedgerCore

/// Cuts a Ledger event stream into self-contained NDJSON batches for upload.
///
/// A batch is cut only between tests, never inside one, and every batch after the first opens
/// with the `run.start` of each run still open, so the server can store each batch on its own
/// and in any order, and a batch sent twice is stored once.
public struct EventBatcher {
    /// The size a batch grows to before it is cut at the next test boundary.
    public let targetBytes: Int
    private var open: [String: [UInt8]] = [:]
    private var openTests = 0
    private var current: [UInt8] = []
    /// Whether `current` holds anything beyond the carried `run.start`s.
    private var unsent = false

    /// Creates a batcher with nothing pending.
    /// - Parameter targetBytes: the size, in bytes, past which a batch is cut at the next test boundary;
    ///   8 MiB by default. A batch can be larger, being cut only between tests.
    public init(targetBytes: Int = 8 << 20) {
        self.targetBytes = targetBytes
    }

    /// Adds a record; returns a finished batch when one is ready.
    ///
    /// - Parameter record: the next record of the stream.
    /// - Returns: the batch, NDJSON lines each ending in a newline, once it reaches ``targetBytes``
    ///   while no test is open; `nil` otherwise. A `run.start` never completes a batch.
    public mutating func add(_ record: LedgerRecord) -> [UInt8]? {
        var line = record.jsonLine
        line.append(0x0A)
        switch record.event {
        case .runStart:
            open[record.run] = line
            current += line
            unsent = true
            return nil
        case .testStart: openTests += 1
        case .testEnd: openTests = max(0, openTests - 1)
        case .runEnd: open[record.run] = nil
        default: break
        }
        current += line
        unsent = true
        guard openTests == 0, current.count >= targetBytes else { return nil }
        return cut()
    }

    /// What is pending now, as a batch: between tests only (for servers that store each batch
    /// on its own), or anywhere (for a live recorder's `?live=1` uploads, which the server joins
    /// to the attempts it keeps running).
    ///
    /// - Parameter betweenTestsOnly: `true` to cut only while no test is open; `false` to cut anywhere.
    /// - Returns: the pending batch; `nil` when nothing beyond the carried `run.start`s is pending, or
    ///   when a test is open and `betweenTestsOnly` is `true`.
    public mutating func flush(betweenTestsOnly: Bool = true) -> [UInt8]? {
        guard unsent, openTests == 0 || !betweenTestsOnly else { return nil }
        return cut()
    }

    /// The last batch, if anything is left.
    /// - Returns: everything pending, wherever the stream stopped; `nil` when nothing beyond the
    ///   carried `run.start`s is.
    public mutating func finish() -> [UInt8]? {
        unsent ? cut() : nil
    }

    private mutating func cut() -> [UInt8] {
        let batch = current
        current = open.keys.sorted().flatMap { open[$0] ?? [] }
        unsent = false
        return batch
    }
}
