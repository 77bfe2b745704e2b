import Foundation

// Usage: GenerateEventStream SCHEMA OUTPUT.swift
// Writes the event types, their reader, writer and Codable dispatch, from LedgerEvents.schema.

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let schemaPath = arguments.first, let output = arguments.last else {
    FileHandle.standardError.write(Data("usage: GenerateEventStream SCHEMA OUTPUT.swift\n".utf8))
    exit(2)
}
do {
    let schema = try EventSchema(parsing: String(contentsOfFile: schemaPath, encoding: .utf8))
    try EventSource(schema).text().write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    FileHandle.standardError.write(Data("\(schemaPath):\(error)\n".utf8))
    exit(1)
}
