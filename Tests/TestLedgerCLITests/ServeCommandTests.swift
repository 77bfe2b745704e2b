import AsyncHTTPClient
import Foundation
import LedgerTestSupport
import NIOCore
import Testing

/// `testledger token`, `serve` and `upload` as users run them: real processes on loopback.
@Suite struct ServeCommandTests {
    static let junit = """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites><testsuite name="CartTests" tests="3" failures="1">
        <testcase classname="CartTests" name="testAdds" time="0.01"/>
        <testcase classname="CartTests" name="testRemoves" time="0.02"><failure message="boom">x</failure></testcase>
        <testcase classname="CartTests" name="testEmpties" time="0.03"/>
        </testsuite></testsuites>
        """

    func storedTests(_ cli: CLI) async throws -> Int {
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        return runs.reduce(0) { $0 + ($1["tests"] as? Int ?? 0) }
    }

    @Test func tokenCreatePrintsTheTokenAloneAndListShowsOnlyItsPrefix() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let created = try await cli.run(["token", "create", "--project", "Shop", "--scope", "read"])
        #expect(created.stdout.split(separator: "\n").count == 1)
        let token = created.stdout.trimmingCharacters(in: .newlines)
        #expect(token.hasPrefix("tl_") && token.count == 51)
        let listed = try await cli.run(["token", "list"]).stdout
        #expect(listed.contains("Shop\tread"))
        #expect(!listed.contains(token))
        let prefix = String(token.prefix(11))
        #expect(listed.contains(prefix))
        #expect(try await cli.run(["token", "revoke", prefix]).status == 0)
        #expect(try await cli.run(["token", "list"]).stdout.contains("revoked"))
        let again = try await cli.run(["token", "revoke", prefix])
        #expect(again.status != 0)
        #expect(again.stderr.contains("token list"))
        #expect(try await cli.run(["token", "create", "--project", "Shop", "--scope", "admin"]).status != 0)
    }

    @Test func uploadSendsAFileOnceHoweverOftenItIsSent() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let token = try await cli.token()
        let server = try ServerProcess(cli)
        defer { server.stop() }
        let file = try cli.directory.write("junit.xml", Self.junit)
        let arguments = ["upload", file.path, "--url", server.url, "--branch", "main"]
        let first = try await cli.run(arguments, environment: ["TESTLEDGER_TOKEN": token])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("3 result(s) stored"))
        let second = try await cli.run(arguments + ["--token", token])
        #expect(second.stdout.contains("0 result(s) stored, 3 already stored"))
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.count == 1)
        #expect(runs.first?["project"] as? String == "Shop")
        #expect(runs.first?["branch"] as? String == "main")
        await #expect(try storedTests(cli) == 3)
    }

    /// A CTRF report with retries stores the same run whether it is ingested here, uploaded, or
    /// posted to the server's import route: the same CTRF report comes back out of either ledger.
    @Test func aCTRFReportIsTheSameRunByEveryWayIn() async throws {
        let report = CLI.packageRoot.appending(path: "Tests/Fixtures/CTRF/example-spec-with-retries.json").path
        let local = try CLI()
        let team = try CLI()
        defer {
            local.directory.remove()
            team.directory.remove()
        }
        let ingested = try await local.run(["ingest", report, "--project", "Shop"])
        #expect(ingested.status == 0 && ingested.stdout.contains("ctrf, 4 result(s) stored"), "\(ingested.stderr)")
        let token = try await team.token()
        let server = try ServerProcess(team)
        defer { server.stop() }
        let uploaded = try await team.run(["upload", report, "--url", server.url, "--token", token])
        #expect(uploaded.status == 0 && uploaded.stdout.contains("4 result(s) stored"), "\(uploaded.stderr)")
        // The run's id is its own on each machine; all else is the same.
        func ctrf(_ cli: CLI, run: [String] = []) async throws -> String {
            let output = try await cli.run(["report", "run"] + run + ["--format", "ctrf"])
            #expect(output.status == 0, "\(output.stderr)")
            return output.stdout.split(separator: "\n").filter { !$0.contains(#""reportId""#) }.joined(separator: "\n")
        }
        let here = try await ctrf(local)
        #expect(here.contains(#""retries" : 2"#) && here.contains(#""flaky" : true"#), "\(here)")
        #expect(try await ctrf(team) == here, "ingested and uploaded differ")

        var request = HTTPClientRequest(url: server.url + "/api/v1/imports")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.body = .bytes(ByteBuffer(data: try Data(contentsOf: URL(fileURLWithPath: report))))
        let posted = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = String(buffer: try await posted.body.collect(upTo: 1 << 20))
        #expect(posted.status == .created && body.contains(#""format" : "ctrf""#), "\(body)")
        let receipt = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        let run = try #require((receipt["runs"] as? [String])?.first, "\(body)")
        #expect(try await ctrf(team, run: [run]) == here, "ingested and posted to the server differ")
    }

    @Test func aMalformedFileSendsNothingAndNamesTheLine() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let token = try await cli.token()
        let server = try ServerProcess(cli)
        defer { server.stop() }
        let file = try cli.directory.write("broken.xml", String(Self.junit.dropLast(40)))
        let output = try await cli.run(["upload", file.path, "--url", server.url, "--token", token])
        #expect(output.status != 0)
        #expect(output.stderr.contains("broken.xml:"), "\(output.stderr)")
        await #expect(try storedTests(cli) == 0)
        let spool = cli.directory.url.appending(path: ".testledger/spool")
        #expect(
            (try? FileManager.default.contentsOfDirectory(atPath: spool.path).filter { !$0.hasPrefix(".") }) ?? [] == []
        )
    }

    @Test func aReadTokenCannotUpload() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let token = try await cli.token("Shop", "read")
        let server = try ServerProcess(cli)
        defer { server.stop() }
        let file = try cli.directory.write("junit.xml", Self.junit)
        let output = try await cli.run(["upload", file.path, "--url", server.url, "--token", token])
        #expect(output.status != 0)
        #expect(output.stderr.contains("HTTP 403"), "\(output.stderr)")
        await #expect(try storedTests(cli) == 0)
    }

    @Test func resultsWaitInTheSpoolWhileTheServerIsDownAndAreSentLater() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let token = try await cli.token()
        let file = try cli.directory.write("junit.xml", Self.junit)
        let spool = cli.directory.path("spool")
        let environment = ["TESTLEDGER_TOKEN": token, "TESTLEDGER_SPOOL": spool]
        let down = try await cli.run(
            ["upload", file.path, "--url", "http://127.0.0.1:9", "--retries", "2"], environment: environment)
        #expect(down.status == 0, "a server that is down does not fail the build")
        #expect(down.stderr.contains("testledger upload --spool"))
        let waiting = try FileManager.default.contentsOfDirectory(atPath: spool).filter { $0.hasSuffix(".ndjson") }
        #expect(waiting.count == 1)
        await #expect(try storedTests(cli) == 0)

        let server = try ServerProcess(cli)
        defer { server.stop() }
        let later = try await cli.run(["upload", "--spool", "--url", server.url], environment: environment)
        #expect(later.status == 0, "\(later.stderr)")
        #expect(later.stdout.contains("3 result(s) stored"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: spool).filter { $0.hasSuffix(".ndjson") } == [])
        await #expect(try storedTests(cli) == 3)
    }

    @Test func aLargeStreamIsSentInBatchesThatTogetherMakeOneRun() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let token = try await cli.token()
        let server = try ServerProcess(cli)
        defer { server.stop() }
        var script = RunScript(project: "Shop").start()
        for index in 0..<300 { script = script.pass("Big/test\(index)") }
        let output = try await cli.run(
            ["upload", "-", "--format", "ledger", "--url", server.url, "--token", token, "--batch-bytes", "8000"],
            stdin: script.end().ndjson)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.split(separator: "\n").count > 5, "\(output.stdout)")
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.count == 1)
        #expect(runs.first?["tests"] as? Int == 300)
        #expect(runs.first?["status"] as? String != "interrupted")
    }

    @Test func servingBeyondLoopbackWithoutATokenIsRefused() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try await cli.run(["serve", "--host", "0.0.0.0", "--port", "0"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("token create"), "\(output.stderr)")
    }

    @Test func sigtermLetsTheUploadUnderWayFinishBeforeExiting() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let token = try await cli.token()
        let server = try ServerProcess(cli)
        var script = RunScript(project: "Shop").start()
        for index in 0..<100 { script = script.pass("Drain/test\(index)") }
        let body = Array(script.end().ndjson.utf8)
        let (chunks, sender) = AsyncStream.makeStream(of: ByteBuffer.self)
        let (bodyStarted, started) = AsyncStream.makeStream(of: Void.self)
        var request = HTTPClientRequest(url: server.url + "/api/v1/events")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.body = .stream(Announcing(base: chunks, started: started), length: .known(Int64(body.count)))
        sender.yield(ByteBuffer(bytes: body[..<(body.count / 2)]))
        async let answer = HTTPClient.shared.execute(request, timeout: .seconds(60))
        // The client reads the body once the connection is up and the request head sent.
        var announcements = bodyStarted.makeAsyncIterator()
        await announcements.next()
        try await untilRequestsUnderWay(2, on: server)  // the upload, and the question
        kill(server.process.processIdentifier, SIGTERM)
        let stopping = try await onOwnThread { server.output.line(containing: "stopping") }
        #expect(stopping == "testledger: stopping: finishing 1 request under way")
        #expect(server.process.isRunning, "the server waits for the upload under way")
        sender.yield(ByteBuffer(bytes: body[(body.count / 2)...]))
        sender.finish()
        #expect(try await answer.status.code == 201)
        #expect(server.stop() == 0)
        await #expect(try storedTests(cli) == 100)
    }
}

/// Waits until the server's `/metrics` counts `count` requests under way, its own included.
private func untilRequestsUnderWay(_ count: Int, on server: ServerProcess) async throws {
    let wanted = "testledger_http_requests_in_flight \(count)\n"
    for _ in 0..<6_000 {
        let answer = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: server.url + "/metrics"), timeout: .seconds(30))
        if String(buffer: try await answer.body.collect(upTo: 1 << 20)).contains(wanted) { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("the server never had \(count) requests under way")
}

/// A body that says when the client begins to read it.
private struct Announcing<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ByteBuffer {
    let base: Base
    let started: AsyncStream<Void>.Continuation

    func makeAsyncIterator() -> Base.AsyncIterator {
        started.yield()
        return base.makeAsyncIterator()
    }
}
