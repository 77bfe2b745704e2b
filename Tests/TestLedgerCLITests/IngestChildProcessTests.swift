import Foundation
import LedgerTestSupport
import Testing

/// What a CI job's `ingest` starts and leaves behind: git only for what nothing else says, once,
/// and no write-ahead log for the next command to read through.
@Suite struct IngestChildProcessTests {
    let junit = """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites><testsuite name="App" tests="2">
        <testcase classname="AppTests.CartTests" name="testTotal" time="0.01"/>
        <testcase classname="AppTests.CartTests" name="testDiscount" time="0.02"/>
        </testsuite></testsuites>
        """

    /// A `git` first on the `PATH` that notes each call in `git-calls` and answers `rev-parse` as
    /// a checkout on `fake-branch` would; the working directory is made a checkout's top level.
    func fakeGit(in cli: CLI) throws -> (environment: [String: String], calls: () -> [String]) {
        let calls = cli.directory.path("git-calls")
        let script = try cli.directory.write(
            "bin/git",
            """
            #!/bin/sh
            echo "$*" >> '\(calls)'
            printf '%s\\n' "$PWD" 0123456789abcdef0123456789abcdef01234567 fake-branch
            """)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        try FileManager.default.createDirectory(
            at: cli.directory.url.appending(path: ".git"), withIntermediateDirectories: true)
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return (
            ["PATH": script.deletingLastPathComponent().path + ":" + path],
            {
                ((try? String(contentsOfFile: calls, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            }
        )
    }

    @Test func givenARevisionAndABranchGitIsNotStarted() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let (environment, calls) = try fakeGit(in: cli)
        let file = try cli.directory.write("results.xml", junit)
        let ingested = try await cli.run(
            ["ingest", "--revision", "r1", "--branch", "main", file.path], environment: environment)
        #expect(ingested.status == 0, "\(ingested.stderr)")
        let report = try await cli.run(["report", "flaky"], environment: environment)
        #expect(report.status == 0, "\(report.stderr)")
        #expect(calls() == [])
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.first?["revision"] as? String == "r1")
        #expect(runs.first?["project"] as? String == cli.directory.url.lastPathComponent, "the checkout's name")
    }

    @Test func theCIsVariablesLeaveGitAlone() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        var (environment, calls) = try fakeGit(in: cli)
        environment.merge([
            "GITHUB_ACTIONS": "true", "GITHUB_SHA": "abc123", "GITHUB_REF_NAME": "main",
            "GITHUB_REPOSITORY": "acme/shop", "GITHUB_RUN_ID": "7",
        ]) { _, new in new }
        let file = try cli.directory.write("results.xml", junit)
        let ingested = try await cli.run(["ingest", file.path], environment: environment)
        #expect(ingested.status == 0, "\(ingested.stderr)")
        #expect(calls() == [])
    }

    @Test func otherwiseGitIsAskedOnceForEverything() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let (environment, calls) = try fakeGit(in: cli)
        let file = try cli.directory.write("results.xml", junit)
        let ingested = try await cli.run(["ingest", file.path], environment: environment)
        #expect(ingested.status == 0, "\(ingested.stderr)")
        #expect(calls().count == 1)
        #expect(calls().first?.contains("rev-parse") == true)
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.first?["revision"] as? String == "0123456789abcdef0123456789abcdef01234567")
        #expect(runs.first?["branch"] as? String == "fake-branch")
    }

    @Test func aHundredIngestsLeaveNoLargeLog() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        // 300 results a run: before each command closed its ledger, 100 such ingests left a log of
        // more than 20 MiB.
        for index in 0..<100 {
            var script = RunScript(run: String(format: "00000000-0000-4000-8000-%012x", index), project: "Shop").start()
            for test in 0..<300 {
                script = index % 7 == test % 7 ? script.fail("A/test\(test)") : script.pass("A/test\(test)")
            }
            let file = try cli.directory.write("run.ndjson", script.end().ndjson)
            let ingested = try await cli.run(["ingest", "--revision", "r\(index)", "--branch", "main", file.path])
            try #require(ingested.status == 0, "\(ingested.stderr)")
        }
        let log = try? FileManager.default.attributesOfItem(atPath: cli.database + "-wal")[.size] as? Int
        #expect((log ?? 0) <= 8 << 20)
        let runs = try #require(try await cli.json(["runs", "--limit", "200"]) as? [[String: Any]])
        #expect(runs.count == 100)
    }
}
