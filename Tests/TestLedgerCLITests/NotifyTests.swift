import Foundation
import Hummingbird
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

/// `.testledger.yml`'s `notify`: what `record` tells a webhook (signed) and Slack (blocks) when a
/// run changes a test's standing, read by a loopback receiver with Python's `hmac` and the
/// documented JSON schemas; `notify test`; a receiver that stalls.
@Suite struct NotifyTests {
    static let test = "App.Cart/total"

    /// What the receiver was sent: each request's path, event header, signature and body.
    actor Received {
        var requests: [(path: String, event: String, signature: String, body: Data)] = []
        func keep(path: String, event: String, signature: String, body: Data) {
            requests.append((path, event, signature, body))
        }
    }

    static func receiver(_ received: Received) -> Router<BasicRequestContext> {
        let router = Router()
        for path in ["/hook", "/slack"] {
            router.post(RouterPath(path)) { request, _ -> Response in
                let header = { (name: String) in
                    request.headers.first { $0.name.canonicalName == name }?.value ?? ""
                }
                let (event, signature) = (header("x-testledger-event"), header("x-testledger-signature"))
                await received.keep(
                    path: path, event: event, signature: signature,
                    body: Data(buffer: try await request.body.collect(upTo: 1 << 20)))
                return Response(status: .ok)
            }
        }
        router.post("/gone") { _, _ -> Response in Response(status: .gone) }
        return router
    }

    static func configuration(_ address: String) -> String {
        """
        project: Shop
        owners:
          - pattern: "App.Cart/*"
            owners: ["@acme/cart"]
        fixLanding:
          runs: 1
          branch: main
        notify:
          - name: team
            webhook: \(address)/hook
            secret: env:HOOK_SECRET
          - name: chat
            slack: \(address)/slack
            events: [fix-landed, regressed]
          - name: gone
            webhook: \(address)/gone
        """
    }

    /// A ledger where `test` is quarantined and has a fix verified on `revision`, waiting to land.
    static func pendingFix(_ cli: CLI, revision: String) async throws {
        let first = try cli.directory.write(
            "first.xml", #"<testsuite name="s"><testcase classname="App.Cart" name="total"/></testsuite>"#)
        #expect(try await cli.run(["ingest", "--project", "Shop", "--branch", "main", first.path]).status == 0)
        let added = try await cli.run(["quarantine", "add", test, "--project", "Shop", "--reason", "flaky"])
        #expect(added.status == 0, "\(added.stderr)")
        let database = try LedgerDatabase(path: cli.database)
        try database.recordFix(
            RecordedFix(
                test: test, project: "Shop", revision: revision, branch: "fix", at: 1,
                evidence: .init(
                    verificationRun: "v", runs: 11, failureRateBefore: 0.25, remainingRateBelow: 0.24,
                    confidence: 0.95)))
        try database.close()
    }

    static func record(_ cli: CLI, revision: String, environment: [String: String] = [:], timeout: Int? = nil)
        async throws -> CLI.Output
    {
        let results = try cli.directory.write(
            "results.xml", #"<testsuite name="s"><testcase classname="App.Cart" name="total"/></testsuite>"#)
        return try await cli.run(
            ["record", "--branch", "main", "--revision", revision, "--junit", results.path]
                + (timeout.map { ["--network-timeout", "\($0)"] } ?? []) + ["--", "sh", "-c", "exit 0"],
            environment: environment)
    }

    /// Python's own HMAC-SHA256 of `body` keyed by `secret`, as a receiver checks it.
    static func pythonSignature(_ body: Data, secret: String, in cli: CLI) async throws -> String {
        let file = try cli.directory.write("signed.json", String(decoding: body, as: UTF8.self))
        let script = """
            import hashlib, hmac, sys
            print("sha256=" + hmac.new(sys.argv[1].encode(), open(sys.argv[2], "rb").read(), hashlib.sha256).hexdigest())
            """
        let output = try await ChildProcess.runTool(["python3", "-c", script, secret, file.path])
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func schemaErrors(_ body: Data, schema: String, in cli: CLI) async throws -> String? {
        let file = try cli.directory.write("body.json", String(decoding: body, as: UTF8.self))
        let path = CLI.packageRoot.appending(path: schema).path
        let checked = try await ChildProcess.runTool(["check-jsonschema", "--schemafile", path, file.path])
        return checked.status == 0 ? nil : checked.stdout + checked.stderr
    }

    @Test(.enabled(if: InstalledTools.checkJSONSchema != nil, InstalledTools.checkJSONSchemaSkip))
    func aLandedFixIsToldSignedToTheWebhookAsBlocksToSlackAndOnce() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let received = Received()
        let secret = "s3cret-for-the-receiver"
        let (first, again) = try await LoopbackServer.serve(Self.receiver(received)) { address in
            _ = try cli.directory.write(".testledger.yml", Self.configuration(address))
            try await Self.pendingFix(cli, revision: "f1xed0c0ffee")
            let environment = ["HOOK_SECRET": secret, "TESTLEDGER_URL": "https://ledger.example.com/"]
            return (
                try await Self.record(cli, revision: "f1xed0c0ffee", environment: environment),
                try await Self.record(cli, revision: "f1xed0c0ffee", environment: environment)
            )
        }
        #expect(first.status == 0 && again.status == 0, "\(first.stderr) \(again.stderr)")
        // The gone target refused each: said, never the job's failure.
        #expect(first.stderr.contains("notify gone: 127.0.0.1 refused it with HTTP 410"), "\(first.stderr)")

        let requests = await received.requests
        // The landing released it at once (runs: 1): the webhook hears both, Slack the landing;
        // the second run changes nothing and tells no one.
        let hook = requests.filter { $0.path == "/hook" }
        let slack = requests.filter { $0.path == "/slack" }
        #expect(hook.map(\.event) == ["released", "fix-landed"], "\(requests.map(\.event))")
        #expect(slack.map(\.event) == ["fix-landed"], "\(requests.map(\.event))")
        for request in hook {
            #expect(request.signature == (try await Self.pythonSignature(request.body, secret: secret, in: cli)))
            let problems = try await Self.schemaErrors(
                request.body, schema: "docs/schemas/notification.schema.json", in: cli)
            #expect(problems == nil, "\(problems ?? "")")
        }
        let landedBody = try #require(hook.last?.body)
        let landed = try #require(try JSONSerialization.jsonObject(with: landedBody) as? [String: Any])
        #expect(landed["test"] as? String == Self.test && landed["project"] as? String == "Shop")
        #expect(landed["standing"] as? String == "fix-landed", "\(landed)")
        #expect(landed["owners"] as? [String] == ["@acme/cart"], "\(landed)")
        #expect((landed["evidence"] as? String)?.contains("fix f1xed0c0 ran on the default branch") == true)
        #expect(landed["url"] as? String == "https://ledger.example.com/projects/Shop/tests/App.Cart%2Ftotal")
        let blocks = try #require(slack.first?.body)
        #expect(slack.first?.signature == "", "a target without a secret is not signed")
        let problems = try await Self.schemaErrors(
            blocks, schema: "Tests/Fixtures/Slack/incoming-webhook.schema.json", in: cli)
        #expect(problems == nil, "\(problems ?? "")")
        #expect(String(decoding: blocks, as: UTF8.self).contains("fix-landed: `App.Cart/total` in Shop"))
    }

    @Test func aDefaultBranchRunThatBreaksATestAndOneThatMakesItFlakyAreTold() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let received = Received()
        let runs = try await LoopbackServer.serve(Self.receiver(received)) { address in
            _ = try cli.directory.write(
                ".testledger.yml",
                "project: Shop\nfixLanding:\n  branch: main\nnotify:\n  - name: team\n    webhook: \(address)/hook\n"
                    + "    events: [became-flaky, broken-on-default]\n")
            var outputs: [CLI.Output] = []
            for (index, (branch, failing)) in [
                ("main", false), ("main", false), ("main", false), ("main", true), ("feature", true), ("main", false),
                ("main", true), ("main", false),
            ].enumerated() {
                let total =
                    failing
                    ? #"<testcase classname="App.Cart" name="total"><failure message="off by one"/></testcase>"#
                    : #"<testcase classname="App.Cart" name="total"/>"#
                let results = try cli.directory.write(
                    "run\(index).xml",
                    #"<testsuite name="s" timestamp="2026-10-01T10:0\#(index):00Z">"#
                        + #"<testcase classname="App.Cart" name="tax"/>"# + total + "</testsuite>")
                outputs.append(
                    try await cli.run([
                        "record", "--branch", branch, "--revision", "r\(index)", "--junit", results.path, "--", "sh",
                        "-c", "exit 0",
                    ]))
            }
            return outputs
        }
        #expect(runs.allSatisfy { $0.status == 0 }, "\(runs.map(\.stderr))")
        let told = await received.requests.map { request in
            let body = try? JSONSerialization.jsonObject(with: request.body) as? [String: Any]
            return "\(request.event) \(body?["test"] as? String ?? "")"
        }
        // The first failure on main broke it, and made it flaky (it passed before); each is told
        // once: the feature branch's failure and the later failure of a known flaky test tell no one.
        #expect(told.sorted() == ["became-flaky App.Cart/total", "broken-on-default App.Cart/total"], "\(told)")
        #expect(runs[3].stderr.isEmpty || !runs[3].stderr.contains("notify team"), "\(runs[3].stderr)")
    }

    @Test func notifyTestSendsASampleAndSaysWhyATargetRefused() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let received = Received()
        let (taken, refused, unsigned, unknown) = try await LoopbackServer.serve(Self.receiver(received)) { address in
            _ = try cli.directory.write(".testledger.yml", Self.configuration(address))
            return (
                try await cli.run(["notify", "test", "--target", "team"], environment: ["HOOK_SECRET": "k"]),
                try await cli.run(["notify", "test", "--target", "gone"]),
                try await cli.run(["notify", "test", "--target", "team"]),
                try await cli.run(["notify", "test", "--target", "nobody"])
            )
        }
        #expect(taken.status == 0 && taken.stdout.contains("notify team: 127.0.0.1 took the sample"), "\(taken)")
        #expect(refused.status == 1 && refused.stderr.contains("refused it with HTTP 410"), "\(refused.stderr)")
        #expect(unsigned.status == 1, "\(unsigned.stderr)")
        #expect(unsigned.stderr.contains("HOOK_SECRET is not set, so nothing was sent unsigned"), "\(unsigned.stderr)")
        #expect(
            unknown.status == 64 && unknown.stderr.contains("the targets are team, chat, gone"), "\(unknown.stderr)")
        let requests = await received.requests
        #expect(requests.count == 1 && requests.first?.event == "quarantined", "only the taken sample arrived")
        let sample = try JSONSerialization.jsonObject(with: try #require(requests.first?.body)) as? [String: Any]
        #expect(sample?["project"] as? String == "Shop" && sample?["event"] as? String == "quarantined")
    }

    @Test func aReceiverThatStallsDelaysRecordByTheDeadlineAtMost() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let silent = try SilentPort()
        _ = try cli.directory.write(".testledger.yml", Self.configuration(silent.address))
        try await Self.pendingFix(cli, revision: "f1xed0c0ffee")
        let recorded = try await Self.record(
            cli, revision: "f1xed0c0ffee", environment: ["HOOK_SECRET": "k"], timeout: 2)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        #expect(recorded.stderr.contains("notify team: 127.0.0.1 did not answer"), "\(recorded.stderr)")
        // Each send alone would wait 10 s: together they stay within the 2 s deadline, with room.
        #expect(recorded.took < .seconds(6), "record took \(recorded.took)\n\(recorded.stderr)")
        // The run is stored and the fix moved on, whatever the receiver did.
        let status = try await cli.run(["status", Self.test, "--project", "Shop"])
        #expect(status.status == 0, "\(status.stdout) \(status.stderr)")
    }
}
