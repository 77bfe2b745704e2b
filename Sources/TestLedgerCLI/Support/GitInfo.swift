import Foundation

/// The revision, branch and repository name git reports for the working directory.
struct GitInfo {
    var revision: String?
    var branch: String?
    var repositoryName: String?

    static func read() -> GitInfo? {
        guard let top = run(["rev-parse", "--show-toplevel"]) else { return nil }
        let branch = run(["rev-parse", "--abbrev-ref", "HEAD"])
        return GitInfo(
            revision: run(["rev-parse", "HEAD"]), branch: branch == "HEAD" ? nil : branch,
            repositoryName: URL(fileURLWithPath: top).lastPathComponent)
    }

    private static func run(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}
