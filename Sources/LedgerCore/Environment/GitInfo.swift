import Foundation

/// The revision, branch and repository name git reports for the working directory.
public struct GitInfo: Hashable, Sendable {
    /// The commit `HEAD` points at; `nil` in a repository without a commit.
    public var revision: String?
    /// The checked-out branch; `nil` on a detached `HEAD` or without a commit.
    public var branch: String?
    /// The name of the repository's top-level folder.
    public var repositoryName: String?

    /// Creates the information from known values.
    ///
    /// - Parameters:
    ///   - revision: the commit `HEAD` points at.
    ///   - branch: the checked-out branch.
    ///   - repositoryName: the name of the repository's top-level folder.
    public init(revision: String? = nil, branch: String? = nil, repositoryName: String? = nil) {
        self.revision = revision
        self.branch = branch
        self.repositoryName = repositoryName
    }

    /// Asks git, once; `nil` outside a repository or where git is missing. Prints nothing.
    ///
    /// Runs `git` from the `PATH` in the current directory and waits for it.
    ///
    /// - Returns: what git reports, with only ``repositoryName`` in a repository without a commit.
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

    /// The top-level folder of the repository that holds `directory`; `nil` outside one.
    public static func topLevel(in directory: String) -> String? {
        run(["-C", directory, "rev-parse", "--show-toplevel"])
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
