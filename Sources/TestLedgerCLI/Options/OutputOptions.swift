import ArgumentParser
import Foundation
import LedgerCore

/// How a report is printed.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, json, markdown
}

/// `--format table|json|markdown`, shared by every report.
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: "table, json or markdown (for CI job summaries).")
    var format: OutputFormat = .table

    /// Prints `value` as JSON, or `table` as a terminal table or Markdown.
    func print(_ value: some Encodable, table: () -> TextTable) throws {
        switch format {
        case .json: Swift.print(try Self.json(value))
        case .table: Swift.print(table().plain)
        case .markdown: Swift.print(table().markdown)
        }
    }

    /// With `--format json`, keeps standard output for the JSON alone: from here on what this
    /// process and the commands it runs print goes to standard error, so that `| jq` reads JSON.
    /// - Returns: where the JSON goes: the standard output the process was given.
    func reserveStandardOutput() -> FileHandle {
        guard format == .json else { return .standardOutput }
        fflush(nil)
        let kept = dup(STDOUT_FILENO)
        guard kept >= 0, dup2(STDERR_FILENO, STDOUT_FILENO) >= 0 else { return .standardOutput }
        return FileHandle(fileDescriptor: kept, closeOnDealloc: true)
    }

    /// Pretty, key-sorted JSON: the documented contract.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
