import Foundation

/// Finds and runs the real pytest for ``JUnitPytestRunTests``.
enum JUnitPytest {
    /// A pytest that answers `--version`, or `nil`.
    static let executable: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { "\($0)/pytest" } + ["/root/.pyenv/shims/pytest"]
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            let url = URL(fileURLWithPath: candidate)
            if (try? run(url, ["--version"], in: URL(fileURLWithPath: NSTemporaryDirectory()))) == 0 {
                return url
            }
        }
        return nil
    }()

    @discardableResult
    static func run(_ executable: URL, _ arguments: [String], in directory: URL) throws -> Int32 {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
