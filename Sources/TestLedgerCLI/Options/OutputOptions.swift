import ArgumentParser
import Foundation

/// How a report is printed.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, markdown
}

/// `--format table|json|markdown`, shared by every report.
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: "table, json or markdown (for CI job summaries).")
    var format: OutputFormat = .table

    /// Pretty, key-sorted JSON: the documented contract.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
