import Foundation

/// Usage: `EmbedMigrations OUTPUT.swift MIGRATION.sql...`
/// Writes a Swift file declaring `EmbeddedMigrations.all`, the migrations in file-name order.
@main
enum EmbedMigrations {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard let output = arguments.first else {
            FileHandle.standardError.write(Data("usage: EmbedMigrations OUTPUT.swift FILE.sql...\n".utf8))
            exit(2)
        }
        let delimiter = String(repeating: "#", count: 6)
        var source = """
            // Generated at build time from a dialect's Migrations/*.sql. Do not edit.

            enum EmbeddedMigrations {
                /// Each migration's identifier (its file name without `.sql`) and SQL, in order.
                static let all: [(identifier: String, sql: String)] = [

            """
        for path in arguments.dropFirst() {
            let url = URL(fileURLWithPath: path)
            let sql = try String(contentsOf: url, encoding: .utf8)
            guard !sql.contains("\"\"\"\(delimiter)") else {
                FileHandle.standardError.write(Data("\(path): contains the raw-string delimiter\n".utf8))
                exit(1)
            }
            let identifier = url.deletingPathExtension().lastPathComponent
            source += "        (\"\(identifier)\", \(delimiter)\"\"\"\n\(sql)\n\"\"\"\(delimiter)),\n"
        }
        source += "    ]\n}\n"
        // Rewritten only when it changes, so that a build that runs this again recompiles nothing.
        if (try? String(contentsOfFile: output, encoding: .utf8)) != source {
            try source.write(toFile: output, atomically: true, encoding: .utf8)
        }
    }
}
