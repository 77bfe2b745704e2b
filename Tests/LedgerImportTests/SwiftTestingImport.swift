import Foundation
import LedgerCore
import LedgerImport
import LedgerTestSupport

/// Imports Swift Testing streams the way the tests need.
enum SwiftTestingImport {
    static let runID = "5A1E5B0E-0000-4000-8000-000000000001"

    static func context(source: String = "events.jsonl") -> ImportContext {
        ImportContext(
            runID: runID, sourceName: source, metadata: RunMetadata(project: "Sample"),
            fallbackStart: 42)
    }

    /// The events imported from `data`.
    static func events(
        _ data: Data, importer: SwiftTestingImporter = SwiftTestingImporter()
    ) throws -> SwiftTestingImportedEvents {
        try events(.data(data), importer: importer)
    }

    /// The events imported from `input`; every record must carry the context's run id.
    static func events(
        _ input: LineReader.Input, importer: SwiftTestingImporter = SwiftTestingImporter()
    ) throws -> SwiftTestingImportedEvents {
        var sink = CollectingSink()
        try importer.importResults(from: input, context: context(), into: &sink)
        guard sink.records.allSatisfy({ $0.run == runID }) else { throw WrongRun() }
        return SwiftTestingImportedEvents(events: sink.events)
    }

    struct WrongRun: Error {}
}

/// The events of one import, sorted by type for the checks.
struct SwiftTestingImportedEvents: RecordedEvents {
    var events: [LedgerEvent]
}
