import Foundation
import LedgerCore

/// What an importer needs beside the input itself.
public struct ImportContext: Sendable {
    /// The run id to give the imported run: derived from the input's content by the caller,
    /// so importing the same input twice stores it once.
    public var runID: String
    /// The name errors are attributed to: the file's path, or `-` for standard input.
    public var sourceName: String
    /// What is known about the run from outside the input: project, revision, branch, CI, host.
    public var metadata: RunMetadata
    /// The run's start time when the input carries none (e.g. the file's modification time).
    public var fallbackStart: Double
    /// How a repeated test id is read; `nil` lets the input decide (``Repeats``).
    public var repeats: Repeats?

    /// Creates a context.
    /// - Parameters:
    ///   - runID: the run id to give the imported run, a UUID string.
    ///   - sourceName: the name errors are attributed to.
    ///   - metadata: what is known about the run from outside the input.
    ///   - fallbackStart: the run's start when the input carries none, in seconds since 1970.
    ///   - repeats: how a repeated test id is read; `nil` lets the input decide.
    public init(
        runID: String, sourceName: String, metadata: RunMetadata, fallbackStart: Double, repeats: Repeats? = nil
    ) {
        self.runID = runID
        self.sourceName = sourceName
        self.metadata = metadata
        self.fallbackStart = fallbackStart
        self.repeats = repeats
    }
}

/// Turns one runner's own output format into the Ledger event stream.
///
/// An importer emits `run.start` before any test event, then per test attempt `test.start`,
/// its `issue`s and `test.end`, then `run.end`. It reads the input as a stream and emits as
/// it goes, so memory stays bounded; on bad input it throws ``LedgerInputError`` naming the
/// line, and the caller discards what was emitted.
public protocol ResultImporter: Sendable {
    /// Reads `input` and emits its events into `sink`.
    /// - Parameters:
    ///   - input: the file or bytes to read.
    ///   - context: the run id, the source name errors name, the metadata and the fallback start.
    ///   - sink: where the events go, in order.
    /// - Throws: ``LedgerInputError`` when the input is malformed; whatever `sink` throws.
    func importResults(
        from input: LineReader.Input, context: ImportContext, into sink: inout some EventSink
    ) throws
}
