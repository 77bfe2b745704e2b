import Foundation
import PackagePlugin

/// Derives the Ledger event types, their reader and their writer from `Events/LedgerEvents.schema`.
@main
struct GenerateEventStreamPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let schema = target.directoryURL.appending(path: "Events/LedgerEvents.schema")
        let output = context.pluginWorkDirectoryURL.appending(path: "LedgerEvents.swift")
        return [
            .buildCommand(
                displayName: "Generating the Ledger event types from LedgerEvents.schema",
                executable: try context.tool(named: "GenerateEventStream").url,
                arguments: [schema.path, output.path],
                inputFiles: [schema],
                outputFiles: [output]
            )
        ]
    }
}
