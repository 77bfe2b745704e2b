import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// Git is read in one `git rev-parse`, and a checkout's top level is found without git.
@Suite struct GitInfoTests {
    @Test func theTopLevelIsTheNearestFolderWithAGitEntry() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let checkout = directory.url.appending(path: "shop")
        try FileManager.default.createDirectory(
            at: checkout.appending(path: ".git"), withIntermediateDirectories: true)
        let deep = checkout.appending(path: "Sources/App")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        // A linked worktree or a submodule has a `.git` file.
        let worktree = try directory.write("shop/Modules/Pay/.git", "gitdir: ../../.git/modules/Pay\n")
            .deletingLastPathComponent()

        #expect(GitInfo.topLevel(in: deep.path) == checkout.standardizedFileURL.path)
        #expect(GitInfo.topLevel(in: worktree.appending(path: "..").appending(path: "Pay").path) == worktree.path)
        #expect(GitInfo.repositoryName(in: deep.path) == "shop")
        #expect(GitInfo.topLevel(in: directory.url.path) == nil)
        #expect(GitInfo.read(in: directory.url.path) == nil, "outside a repository git is not asked")
    }

    @Test func oneRevParseGivesTheRevisionTheBranchAndTheName() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let checkout = directory.url.appending(path: "store")
        try FileManager.default.createDirectory(at: checkout, withIntermediateDirectories: true)
        let author = [
            "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "T",
            "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1", "HOME": directory.url.path,
        ]
        func git(_ arguments: [String]) async throws {
            let output = try await ChildProcess.runTool(["git"] + arguments, environment: author, in: checkout)
            try #require(output.status == 0, "\(output.stderr)")
        }
        try await git(["init", "-q", "-b", "trunk"])
        #expect(GitInfo.read(in: checkout.path) == GitInfo(repositoryName: "store"), "no commit yet")

        try await git(["commit", "-q", "--allow-empty", "-m", "first"])
        let read = try #require(GitInfo.read(in: checkout.path))
        #expect(read.branch == "trunk")
        #expect(read.repositoryName == "store")
        #expect(read.revision?.count == 40)

        try await git(["checkout", "-q", "--detach"])
        #expect(GitInfo.read(in: checkout.path)?.branch == nil, "a detached HEAD has no branch")
    }
}
