import Foundation
import LedgerCore

/// Reads a runner's console output one line at a time, as it arrives, and tells what each line
/// means as Ledger events (`test.start`, `issue`, `test.end`, …; never `run.start`).
///
/// The same parser serves `testledger format`, which feeds lines with the time they arrived,
/// and `testledger ingest` (through ``StreamingImporter``), which feeds a file's lines without
/// times: then a test's duration is what the output says (TAP's `duration_ms`) or 0, and its
/// start follows the one before it.
public protocol StreamingParser {
    /// What the output is called in errors, e.g. `TAP text output`.
    static var outputName: String { get }

    /// The run's `source`, e.g. `tap` or `bacon`.
    var source: String { get }

    /// What was odd about the output so far, each naming its line; the run's data is in the
    /// events.
    var notes: [String] { get }

    /// Creates a parser for a run that started at `startedAt` (seconds since 1970).
    /// - Parameter startedAt: the run's start, in seconds since 1970; times of lines read without
    ///   arrival times count from it.
    init(startedAt: Double)

    /// Reads one line, without its line break.
    /// - Parameters:
    ///   - line: the line.
    ///   - at: when it arrived (seconds since 1970), or `nil` when reading a file.
    /// - Returns: the events the line completes, in order.
    /// - Throws: ``LedgerInputError`` for output that cannot be this format.
    mutating func consume(_ line: Substring, at: Double?) throws -> [LedgerEvent]

    /// The output ended: closes what is open. A run that ended properly ends with `run.end`, from
    /// here or from an earlier line (Bacon's summary); one that was cut short (a TAP bail-out, no
    /// Bacon summary) does not, so it shows as interrupted.
    /// - Parameter at: when the output ended, in seconds since 1970; `nil` when reading a file.
    /// - Returns: the events of what was still open, in order, then `run.end` when the run ends here.
    /// - Throws: ``LedgerInputError`` when nothing in the input was this format.
    mutating func finish(at: Double?) throws -> [LedgerEvent]
}
