import Foundation
import LedgerTestSupport

/// Finds and runs the real pytest for ``JUnitPytestRunTests``.
enum JUnitPytest {
    /// A pytest that answers `--version`, or `nil`.
    static let executable: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { "\($0)/pytest" } + ["/root/.pyenv/shims/pytest"]
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            let url = URL(fileURLWithPath: candidate)
            let probe = Process()
            probe.executableURL = url
            probe.arguments = ["--version"]
            probe.standardOutput = FileHandle.nullDevice
            probe.standardError = FileHandle.nullDevice
            guard (try? probe.run()) != nil else { continue }
            probe.waitUntilExit()
            if probe.terminationStatus == 0 { return url }
        }
        return nil
    }()

    @discardableResult
    static func run(_ executable: URL, _ arguments: [String], in directory: URL) async throws -> Int32 {
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        return try await ChildProcess.run(executable, arguments, environment: environment, in: directory).status
    }
}
