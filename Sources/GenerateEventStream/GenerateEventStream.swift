import Foundation

/// Usage: `GenerateEventStream SCHEMA OUTPUT.swift`
/// Writes the event types, their reader, writer and Codable dispatch, from LedgerEvents.schema.
@main
enum GenerateEventStream {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count == 2, let schemaPath = arguments.first, let output = arguments.last else {
            FileHandle.standardError.write(Data("usage: GenerateEventStream SCHEMA OUTPUT.swift\n".utf8))
            exit(2)
        }
        do {
            let schema = try EventSchema(parsing: String(contentsOfFile: schemaPath, encoding: .utf8))
            let text = try EventSource(schema).text()
            // Rewritten only when it changes: SwiftPM runs this again whenever the environment of the
            // build changes (each `testledger record` gives its tests a new run id), and a new file
            // would recompile every module above LedgerCore.
            if (try? String(contentsOfFile: output, encoding: .utf8)) != text {
                try text.write(toFile: output, atomically: true, encoding: .utf8)
            }
        } catch {
            FileHandle.standardError.write(Data("\(schemaPath):\(error)\n".utf8))
            exit(1)
        }
    }
}
