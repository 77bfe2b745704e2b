import Foundation
import PackagePlugin

/// Compiles a dialect's `Migrations/<dialect>/*.sql` into the target, so a copied binary carries
/// its schema: PostgreSQL's into `LedgerPostgres`, SQLite's into every other target.
@main
struct EmbedMigrationsPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let dialect = target.name == "LedgerPostgres" ? "postgresql" : "sqlite"
        let folder = context.package.directoryURL.appending(path: "Migrations").appending(path: dialect)
        let files = try FileManager.default
            .contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "sql" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedMigrations.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) migrations into \(target.name)",
                executable: try context.tool(named: "EmbedMigrations").url,
                arguments: [output.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output]
            )
        ]
    }
}
