import Foundation
import LedgerTestSupport
import Testing

/// Every command that only reads opens the ledger read-only: seen from outside, by `strace`, in
/// the flags of each `open` of the ledger's file and of a rollback journal, and in the bytes of
/// the file and its write-ahead log (SQLite opens the log read-write on every connection, so its
/// flags tell nothing).
@Suite(.enabled(if: InstalledTools.strace != nil, InstalledTools.straceSkip))
struct ReadCommandsOpenReadOnlyTests {
    static let newest = "00000000-0000-4000-8000-000000000035"
    static let flakyTest = "ShopTests.PassesonretryTests/test1"
    static let stableTest = "ShopTests.StableTests/test3"

    /// The reading commands, each as a user would type it against the generated history.
    static let commands: [[String]] = [
        ["runs"], ["report", "run", newest], ["report", "pyramid"], ["report", "flaky", "--format", "json"],
        ["report", "failures"], ["report", "slow"], ["report", "culprit", flakyTest, "--project", "Shop"],
        ["report", "cost"], ["report", "selection"], ["show", flakyTest], ["status", stableTest, "--project", "Shop"],
        ["quarantine", "list", "--project", "Shop"], ["quarantine", "log", "--project", "Shop"],
        ["quarantine", "args", "--for", "swift-test", "--project", "Shop"], ["token", "list"],
        ["shard", "plan", "--shards", "2", "--project", "Shop"], ["mcp"],
    ]

    /// What `mcp` is asked: to start, then the flaky tests, its input ending there.
    static func mcpRequests() throws -> String {
        let initialize = try MCPEndOfInputTests.request(
            1, "initialize",
            [
                "protocolVersion": "2025-06-18", "capabilities": [String: Any](),
                "clientInfo": ["name": "script", "version": "1"],
            ])
        let call = try MCPEndOfInputTests.request(2, "tools/call", ["name": "flaky_tests", "arguments": [:]])
        return [initialize, #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, call].joined(separator: "\n")
            + "\n"
    }

    /// The opens of `files` in an `strace -e trace=open,openat` log whose flags could write.
    static func writingOpens(in log: String, of files: Set<String>) -> [String] {
        log.split(separator: "\n").filter { line in
            guard line.contains("open"), let path = Self.quotedPath(in: line), files.contains(path) else {
                return false
            }
            return ["O_RDWR", "O_WRONLY", "O_CREAT", "O_TRUNC"].contains { line.contains($0) }
        }.map(String.init)
    }

    private static func quotedPath(in line: Substring) -> String? {
        guard let open = line.firstIndex(of: "\"") else { return nil }
        let rest = line[line.index(after: open)...]
        guard let close = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<close])
    }

    /// The ledger's file and its write-ahead log, as bytes; a missing or empty log is empty.
    static func contents(of ledger: String) -> [Data] {
        [ledger, ledger + "-wal"].map { (try? Data(contentsOf: URL(fileURLWithPath: $0))) ?? Data() }
    }

    @Test func theParserTellsAWritingOpenFromAReadingOne() {
        let log = """
            812   openat(AT_FDCWD, "/l/ledger.sqlite", O_RDONLY|O_NOFOLLOW|O_CLOEXEC) = 3
            812   openat(AT_FDCWD, "/l/ledger.sqlite-shm", O_RDWR|O_CREAT|O_NOFOLLOW|O_CLOEXEC, 0644) = 4
            813   openat(AT_FDCWD, "/l/ledger.sqlite-journal", O_RDWR|O_CREAT|O_NOFOLLOW|O_CLOEXEC, 0644) = 5
            814   open("/l/ledger.sqlite", O_RDWR|O_CLOEXEC) = 6
            """
        let files: Set = ["/l/ledger.sqlite", "/l/ledger.sqlite-journal"]
        #expect(Self.writingOpens(in: log, of: files).map { $0.prefix(3) } == ["813", "814"])
        #expect(Self.writingOpens(in: log, of: ["/l/other"]).isEmpty)
    }

    @Test func noReadingCommandOpensTheLedgerToWrite() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let paths = try GeneratedHistory.files().enumerated().map { index, text in
            try cli.directory.write(String(format: "run%02d.jsonl", index), text).path
        }
        let ingested = try await cli.run(["ingest"] + paths)
        #expect(ingested.status == 0, "\(ingested.stderr)")
        let added = try await cli.run(
            ["quarantine", "add", Self.flakyTest, "--mode", "skip", "--reason", "flaky", "--by", "ci"]
                + ["--project", "Shop"])
        #expect(added.status == 0, "\(added.stderr)")
        let token = try await cli.run(["token", "create", "--project", "Shop", "--scope", "read"])
        #expect(token.status == 0, "\(token.stderr)")
        let strace = try #require(InstalledTools.strace)
        let files: Set = [cli.database, cli.database + "-journal"]
        let before = Self.contents(of: cli.database)

        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, command) in Self.commands.enumerated() {
                group.addTask {
                    let log = cli.directory.path("strace-\(index).log")
                    let output = try await cli.run(
                        ["-f", "-e", "trace=open,openat", "-o", log, CLI.binary.path] + command,
                        stdin: command == ["mcp"] ? try Self.mcpRequests() : nil,
                        executable: URL(fileURLWithPath: strace))
                    // `status` exits with the test's standing: 10 to 13 when it is not healthy.
                    let statuses: Set<Int32> = command[0] == "status" ? [0, 10, 11, 12, 13] : [0]
                    #expect(statuses.contains(output.status), "\(command): \(output.stderr.suffix(2_000))")
                    #expect(!output.stdout.isEmpty, "\(command) printed nothing")
                    let traced = try String(contentsOfFile: log, encoding: .utf8)
                    #expect(traced.contains("\"\(cli.database)\""), "\(command) never opened the ledger")
                    let writing = Self.writingOpens(in: traced, of: files)
                    #expect(
                        writing.isEmpty, "\(command) opened the ledger to write:\n\(writing.joined(separator: "\n"))")
                }
            }
            try await group.waitForAll()
        }
        #expect(Self.contents(of: cli.database) == before, "the ledger's bytes changed")

        // The same trace sees a command that writes.
        let log = cli.directory.path("strace-writer.log")
        let removed = try await cli.run(
            ["-f", "-e", "trace=open,openat", "-o", log, CLI.binary.path, "quarantine", "remove", Self.flakyTest]
                + ["--by", "ci", "--project", "Shop"],
            executable: URL(fileURLWithPath: strace))
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(!Self.writingOpens(in: try String(contentsOfFile: log, encoding: .utf8), of: files).isEmpty)
    }
}
