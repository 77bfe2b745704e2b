import Foundation
import Testing

/// Programs the tests run when they are installed, found in `PATH`; a test that needs one that
/// is missing skips, naming it.
enum InstalledTools {
    static let bacon = executable("bacon")
    static let ruby = executable("ruby")
    static let node = executable("node")
    static let checkJSONSchema = executable("check-jsonschema")
    /// Whether `python3` can import PyPI's `mcp`, the client that drives `testledger mcp`.
    static let pythonMCP = pythonImports("mcp")

    static let checkJSONSchemaSkip: Comment = "needs check-jsonschema (pip install check-jsonschema)"
    static let pythonMCPSkip: Comment = "needs PyPI's mcp in python3 (pip install 'mcp==2.3.0')"

    static func executable(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether `python3` in `PATH` imports `module`.
    static func pythonImports(_ module: String) -> Bool {
        guard let python = executable("python3") else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", "import \(module)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
