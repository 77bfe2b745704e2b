import Foundation

/// The revision, branch and repository name git reports for the working directory.
public struct GitInfo: Hashable, Sendable {
    public var revision: String?
    public var branch: String?
    public var repositoryName: String?

    public init(revision: String? = nil, branch: String? = nil, repositoryName: String? = nil) {
        self.revision = revision
        self.branch = branch
        self.repositoryName = repositoryName
    }

    /// Asks git, once; `nil` outside a repository or where git is missing. Prints nothing.
    public static func read() -> GitInfo? {
        if let lines = run(["rev-parse", "--show-toplevel", "HEAD", "--abbrev-ref", "HEAD"])?.split(separator: "\n"),
            lines.count == 3
        {
            return GitInfo(
                revision: String(lines[1]), branch: lines[2] == "HEAD" ? nil : String(lines[2]),
                repositoryName: URL(fileURLWithPath: String(lines[0])).lastPathComponent)
        }
        // A repository without a commit yet has a folder but no revision.
        guard let top = run(["rev-parse", "--show-toplevel"]) else { return nil }
        return GitInfo(repositoryName: URL(fileURLWithPath: top).lastPathComponent)
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
