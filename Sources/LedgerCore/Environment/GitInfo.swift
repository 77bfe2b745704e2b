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

    /// Asks git, in one `git rev-parse`; `nil` outside a repository. Prints nothing.
    ///
    /// Outside a repository (no ``topLevel(in:)`` and no `GIT_DIR`) git is not started at all.
    /// Where git is missing or fails, only ``repositoryName`` is known.
    ///
    /// - Parameter directory: the folder to ask about; the working directory by default.
    /// - Returns: what git reports, with only ``repositoryName`` in a repository without a commit.
    public static func read(in directory: String = FileManager.default.currentDirectoryPath) -> GitInfo? {
        let found = topLevel(in: directory)
        guard found != nil || getenv("GIT_DIR") != nil else { return nil }
        // `--revs-only` keeps an unborn `HEAD` from failing the whole command: it prints nothing.
        let arguments = [
            "-C", directory, "rev-parse", "--show-toplevel", "--revs-only", "HEAD", "--abbrev-ref", "HEAD",
        ]
        guard let output = try? Spawn.run("git", arguments), output.status == 0 else {
            return found.map { GitInfo(repositoryName: name(of: $0)) }
        }
        let lines = output.text.split(separator: "\n").map(String.init)
        let top = lines.first ?? found
        guard lines.count == 3 else { return GitInfo(repositoryName: top.map(name(of:))) }
        return GitInfo(
            revision: lines[1], branch: lines[2] == "HEAD" ? nil : lines[2], repositoryName: top.map(name(of:)))
    }

    /// The top-level folder of the repository that holds `directory`: the nearest folder, from
    /// `directory` up, with a `.git` folder or file in it, as git finds it when `GIT_DIR` is not
    /// set; `nil` outside one. Reads the file system only; git is not started.
    ///
    /// - Parameter directory: an absolute path, or one relative to the working directory.
    /// - Returns: the folder's path.
    public static func topLevel(in directory: String) -> String? {
        var folder = URL(fileURLWithPath: directory).standardizedFileURL.path
        while true {
            var status = stat()
            if stat(folder + (folder.hasSuffix("/") ? "" : "/") + ".git", &status) == 0 { return folder }
            let parent = (folder as NSString).deletingLastPathComponent
            if parent == folder || parent.isEmpty { return nil }
            folder = parent
        }
    }

    /// The repository's name, its top-level folder's, found as ``topLevel(in:)`` finds it.
    ///
    /// - Parameter directory: an absolute path, or one relative to the working directory.
    /// - Returns: the name; `nil` outside a repository.
    public static func repositoryName(in directory: String) -> String? {
        topLevel(in: directory).map(name(of:))
    }

    private static func name(of folder: String) -> String {
        URL(fileURLWithPath: folder).lastPathComponent
    }
}
