import Foundation
import LedgerCore
import LedgerImport
import LedgerTestSupport
import Testing

/// Imports written TAP samples for the TAP tests.
enum TAPSamples {
    /// Imports `text` as a TAP file (from memory and from a file, which must agree).
    static func run(_ text: String) throws -> ImportedRun {
        try ImportedRun.importing(Data(text.utf8), with: TAPImporter())
    }

    /// Feeds `lines` to a parser as they arrive at the given times (seconds after
    /// ``ImportedRun/start``), then finishes at `end`.
    /// - Returns: the events each line (and, last, the end) produced, and the parser's notes.
    static func live(_ lines: [(String, Double)], endingAt end: Double? = nil) throws
        -> (events: [[LedgerEvent]], notes: [String])
    {
        var parser = TAPParser(startedAt: ImportedRun.start)
        var events: [[LedgerEvent]] = []
        for (line, at) in lines {
            events.append(try parser.consume(Substring(line), at: ImportedRun.start + at))
        }
        events.append(try parser.finish(at: end.map { ImportedRun.start + $0 }))
        return (events, parser.notes)
    }

    /// The run's events as `<type> <test>` strings, for compact order checks.
    static func outline(_ run: ImportedRun) -> [String] {
        run.events.map { event in
            switch event {
            case .testStart(let start): "start \(start.test)"
            case .issue(let issue): "issue \(issue.test)"
            case .testEnd(let end): "end \(end.test) \(end.outcome.rawValue)"
            case .runEnd(let end): "run.end \(end.outcome?.rawValue ?? "-")"
            default: event.type
            }
        }
    }
}
