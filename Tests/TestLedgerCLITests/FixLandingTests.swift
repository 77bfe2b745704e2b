import AsyncHTTPClient
import Foundation
import LedgerCore
import LedgerStore
import LedgerTestSupport
import NIOCore
import Testing

/// A fix followed through real ingests in a real git checkout: verified on a branch, pending until
/// a merge of it runs on main, landed, released from the quarantine after its clean runs, and
/// regressed by a later failure.
@Suite struct FixLandingTests {
    static let test = "App.Cart/total"

    static func junit(_ cli: CLI, _ name: String, minute: Int, failing: Bool) throws -> URL {
        let total =
            failing
            ? #"<testcase classname="App.Cart" name="total"><failure message="off by one"/></testcase>"#
            : #"<testcase classname="App.Cart" name="total"/>"#
        return try cli.directory.write(
            name,
            #"<testsuite name="s" timestamp="2026-10-01T10:\#(String(format: "%02d", minute)):00Z">"#
                + #"<testcase classname="App.Cart" name="tax"/>"# + total + "</testsuite>")
    }

    static func git(_ cli: CLI, _ arguments: String...) async throws -> String {
        let output = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["git", "-C", cli.directory.url.path, "-c", "user.name=t", "-c", "user.email=t@localhost"] + arguments)
        try #require(output.status == 0, "git \(arguments): \(output.stderr)")
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Ingests a run of `branch` at `revision`, a minute after the one before.
    static func ingest(_ cli: CLI, _ name: String, branch: String, revision: String, failing: Bool) async throws {
        let minute = try FileManager.default.contentsOfDirectory(atPath: cli.directory.url.path).count(where: {
            $0.hasSuffix(".xml")
        })
        let file = try junit(cli, name, minute: minute, failing: failing)
        let ingested = try await cli.run([
            "ingest", "--project", "Shop", "--branch", branch, "--revision", revision, file.path,
        ])
        #expect(ingested.status == 0, "\(ingested.stderr)")
    }

    static func status(_ cli: CLI) async throws -> (status: Int32, standing: [String: Any]) {
        let output = try await cli.run(["status", test, "--project", "Shop", "--format", "json"])
        let standings = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]]
        return (output.status, try #require(standings?.first, "\(output.stdout) \(output.stderr)"))
    }

    /// `testledger mcp`'s `status` of the test.
    static func mcpStatus(_ cli: CLI) async throws -> [String: Any]? {
        try await MCPEndOfInputTests.call(
            "status", ["test": test], on: cli, environment: ["TESTLEDGER_PROJECT": "Shop"])
            as? [String: Any]
    }

    /// A checkout of `main` with the fix made on branch `fix-total` and merged with `--no-ff`, and
    /// `.testledger.yml` releasing a fix after 2 clean runs on main.
    static func checkout(_ cli: CLI) async throws -> (base: String, fix: String, merge: String) {
        _ = try cli.directory.write(".testledger.yml", "project: Shop\nfixLanding:\n  runs: 2\n  branch: main\n")
        _ = try cli.directory.write("cart.swift", "let total = 1\n")
        _ = try await Self.git(cli, "init", "-q", "-b", "main")
        _ = try await Self.git(cli, "add", "cart.swift", ".testledger.yml")
        _ = try await Self.git(cli, "commit", "-qm", "base")
        let base = try await Self.git(cli, "rev-parse", "HEAD")
        _ = try await Self.git(cli, "checkout", "-qb", "fix-total")
        _ = try cli.directory.write("cart.swift", "let total = 2\n")
        _ = try await Self.git(cli, "commit", "-qam", "fix")
        let fix = try await Self.git(cli, "rev-parse", "HEAD")
        _ = try await Self.git(cli, "checkout", "-q", "main")
        _ = try await Self.git(cli, "merge", "-q", "--no-ff", "-m", "merge", "fix-total")
        return (base, fix, try await Self.git(cli, "rev-parse", "HEAD"))
    }

    /// With a team server, which has no checkout: the fix `verify` sent it lands when `upload`,
    /// from CI's checkout, says the merge's run carries it.
    @Test func aFixOnTheTeamServerLandsWithTheMergeUploadSaysItCarries() async throws {
        let (cli, team) = (try CLI(), try CLI())
        defer {
            cli.directory.remove()
            team.directory.remove()
        }
        let (base, fixRevision, merge) = try await Self.checkout(cli)
        let (write, manage) = (try await team.token("Shop", "write"), try await team.token("Shop", "manage"))
        let server = try ServerProcess(team)
        defer { server.stop() }
        let ci = ["TESTLEDGER_URL": server.url, "TESTLEDGER_TOKEN": write]
        func upload(_ name: String, revision: String) async throws {
            let file = try Self.junit(cli, name, minute: name == "before.xml" ? 1 : 2, failing: false)
            let sent = try await cli.run(
                ["upload", file.path, "--branch", "main", "--revision", revision], environment: ci)
            #expect(sent.status == 0 && !sent.stderr.contains("warning"), "\(sent.stderr)")
        }
        try await upload("before.xml", revision: base)

        var request = HTTPClientRequest(url: server.url + "/api/v1/projects/Shop/fixes")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(manage)")
        request.body = .bytes(
            ByteBuffer(
                string: #"{"test": "\#(Self.test)", "revision": "\#(fixRevision)", "branch": "fix-total", "#
                    + #""evidence": {"verificationRun": "v", "runs": 11, "failureRateBefore": 0.4, "#
                    + #""remainingRateBelow": 0.24, "confidence": 0.95}}"#))
        let sent = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        #expect(sent.status == .created)
        #expect(try await team.run(["status", Self.test, "--project", "Shop"]).status == 14)

        // The merge is not the fix's revision: the server lands it by what upload said.
        try await upload("merged.xml", revision: merge)
        let (status, standing) = try await Self.status(team)
        #expect(status == 15 && standing["standing"] as? String == "fix-landed", "\(standing)")
        let runs = try #require(try await team.json(["runs"]) as? [[String: Any]])
        let labels = runs.first?["labels"] as? [String: String]
        #expect(labels?[RecordedFix.carriedLabel] == fixRevision && runs.last?["labels"] == nil, "\(runs)")
    }

    @Test func aFixVerifiedOnABranchLandsWithItsMergeIsReleasedAfterItsRunsAndRegressesOnAFailure() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let (base, fixRevision, merge) = try await Self.checkout(cli)

        // Flaky on main, and quarantined for it.
        for (index, failing) in [false, true, false, true, false].enumerated() {
            try await Self.ingest(cli, "main\(index).xml", branch: "main", revision: base, failing: failing)
        }
        let added = try await cli.run(["quarantine", "add", Self.test, "--project", "Shop", "--reason", "flaky"])
        #expect(added.status == 0, "\(added.stderr)")
        let database = try LedgerDatabase(path: cli.database)
        try database.recordFix(
            RecordedFix(
                test: Self.test, project: "Shop", revision: fixRevision, branch: "fix-total", at: 1,
                evidence: .init(
                    verificationRun: "v", runs: 11, failureRateBefore: 0.4, remainingRateBelow: 0.24,
                    confidence: 0.95), runsToRelease: nil))
        try database.close()

        // The fix's branch and main before the merge leave it pending.
        try await Self.ingest(cli, "branch.xml", branch: "fix-total", revision: fixRevision, failing: false)
        try await Self.ingest(cli, "before.xml", branch: "main", revision: base, failing: false)
        var (status, standing) = try await Self.status(cli)
        #expect(status == 14 && standing["standing"] as? String == "fix-pending", "\(standing)")
        #expect((standing["fix"] as? [String: Any])?["revision"] as? String == fixRevision)
        let agent = try #require(try await Self.mcpStatus(cli))
        #expect(agent["standing"] as? String == "fix-pending", "\(agent)")
        #expect((agent["fix"] as? [String: Any])?["revision"] as? String == fixRevision, "\(agent)")
        let flaky = try #require(try await cli.json(["report", "flaky", "--project", "Shop"]) as? [String: Any])
        let entry = try #require((flaky["flaky"] as? [[String: Any]])?.first { $0["test"] as? String == Self.test })
        #expect((entry["fix"] as? [String: Any])?["state"] as? String == "fix-pending", "\(entry)")

        // A pull request's failing run says the fix is on its way, beside the failure.
        try await Self.ingest(cli, "feature.xml", branch: "feature", revision: base, failing: true)
        let run = try #require(try await cli.json(["report", "run", "--project", "Shop"]) as? [String: Any])
        let failure = try #require((run["failures"] as? [[String: Any]])?.first, "\(run)")
        #expect((failure["fix"] as? [String: Any])?["state"] as? String == "fix-pending", "\(failure)")
        #expect((failure["evidence"] as? String)?.hasSuffix("; fix-pending \(fixRevision.prefix(8))") == true)

        // The merge, a descendant git knows, lands it; the next clean run releases it.
        try await Self.ingest(cli, "merged.xml", branch: "main", revision: merge, failing: false)
        (status, standing) = try await Self.status(cli)
        #expect(status == 15 && (standing["reason"] as? String)?.hasSuffix("1 of 2 clean runs") == true, "\(standing)")
        #expect((try await cli.json(["quarantine", "list", "--project", "Shop"]) as? [Any])?.count == 1)
        try await Self.ingest(cli, "held.xml", branch: "main", revision: merge, failing: false)
        (status, standing) = try await Self.status(cli)
        #expect(status == 0 && standing["standing"] as? String == "healthy" && standing["fix"] == nil, "\(standing)")
        #expect((try await cli.json(["quarantine", "list", "--project", "Shop"]) as? [Any])?.isEmpty == true)
        let log = try #require(try await cli.json(["quarantine", "log", "--project", "Shop"]) as? [[String: Any]])
        let release = try #require(log.last)
        #expect(release["action"] as? String == "remove" && release["by"] as? String == "testledger", "\(release)")
        #expect((release["reason"] as? String)?.contains("held for 2 clean runs on main") == true, "\(release)")
        #expect((release["evidence"] as? String)?.contains(fixRevision) == true, "\(release)")
        let after = try #require(try await cli.json(["report", "flaky", "--project", "Shop"]) as? [String: Any])
        #expect((after["flaky"] as? [[String: Any]])?.contains { $0["test"] as? String == Self.test } == false)

        // A failure on main afterwards reopens it, naming the fix.
        try await Self.ingest(cli, "again.xml", branch: "main", revision: merge, failing: true)
        (status, standing) = try await Self.status(cli)
        #expect(status == 16 && standing["standing"] as? String == "regressed", "\(standing)")
        #expect((standing["reason"] as? String)?.contains("after fix \(fixRevision.prefix(8)) landed") == true)
    }
}
