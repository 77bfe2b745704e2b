import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `select` and `record --select` on Tests/Fixtures/SelectedSuite, copied into a git repository of
/// its own: CartTests (XCTest) depends on Cart; PaymentsTests (Swift Testing) on Payments, Fakes and
/// the local package Money, all of which reach Cart.
@Suite(.serialized) struct RecordSelectTests {
    static let fixture = CLI.packageRoot.appending(path: "Tests/Fixtures/SelectedSuite")
    static let cartTests = [
        "CartTests.CartTests/testANewCartIsEmpty", "CartTests.CartTests/testCheckoutCompletes",
        "CartTests.CartTests/testTotalAddsThePrices",
    ]

    /// The fixture, committed on `main` in `cli`'s folder as `repo`.
    static func repository(_ cli: CLI) async throws -> URL {
        let repo = cli.directory.url.appending(path: "repo")
        try FileManager.default.copyItem(at: fixture, to: repo)
        try Data(".build/\n".utf8).write(to: repo.appending(path: ".gitignore"))
        try await git(repo, "init", "-q", "-b", "main")
        try await commit(repo, "base")
        return repo
    }

    static func git(_ repo: URL, _ arguments: String...) async throws {
        let output = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["git", "-C", repo.path, "-c", "user.name=t", "-c", "user.email=t@localhost"] + arguments)
        try #require(output.status == 0, "git \(arguments): \(output.stderr)")
    }

    static func commit(_ repo: URL, _ message: String) async throws {
        try await git(repo, "add", "-A")
        try await git(repo, "commit", "-qm", message)
    }

    static func append(_ line: String, to file: String, in repo: URL) throws {
        let url = repo.appending(path: file)
        try (String(contentsOf: url, encoding: .utf8) + line + "\n").write(to: url, atomically: true, encoding: .utf8)
    }

    static func record(
        _ cli: CLI, _ options: [String] = [], arguments: [String] = [], environment: [String: String] = [:]
    ) async throws -> CLI.Output {
        try await cli.run(
            ["record", "--project", "Shop"] + options + [
                "--", "swift", "test", "--package-path", "repo", "--scratch-path",
                CLI.scratchPath(for: "SelectedSuite"),
            ] + arguments, environment: environment)
    }

    static func results(_ cli: CLI, run: String) async throws -> [String] {
        try await ConcurrentCreationTests.query(
            cli.database,
            """
            SELECT test.key || ' ' || result.outcome || ' ' || coalesce(result.message, '') FROM result
            JOIN test ON test.id = result.testId JOIN run ON run.id = result.runId
            WHERE run.uuid = '\(run)' ORDER BY test.key
            """)
    }

    static func runID(_ output: CLI.Output) throws -> String {
        let lines = (output.stdout + output.stderr).split(separator: "\n")
        let line = try #require(lines.first { $0.hasPrefix("testledger: run ") }, "\(output.stdout)\(output.stderr)")
        return String(line.dropFirst("testledger: run ".count).prefix(36))
    }

    @Test func theUnaffectedTargetIsLeftOutWithItsVouchingRunAndObservingMeasuresIt() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let repo = try await Self.repository(cli)
        try cli.directory.write(".testledger.yml", "select:\n  unskippable: [\"*/testANewCartIsEmpty\"]\n")
        let first = try await Self.record(cli, ["--select", "--branch", "main", "--revision", "1a2b3c4d"])
        #expect(first.status == 0, "\(first.stderr.suffix(3_000))")
        #expect(first.stderr.contains("testledger: select: every test target runs (2 of 2)"), "\(first.stderr)")
        // Why, and what to do: a run vouches once recorded with --select.
        #expect(
            first.stderr.contains("2 did not change, but no complete, passing run of main or this branch stored"),
            "\(first.stderr)")
        let vouching = try Self.runID(first)

        try await Self.git(repo, "checkout", "-q", "-b", "feature")
        try Self.append("// Rounds before charging.", to: "Sources/Payments/Payments.swift", in: repo)
        try await Self.commit(repo, "payments")
        let selectJSON = try await cli.run([
            "select", "--project", "Shop", "--package-path", "repo", "--branch", "feature", "--format", "json",
        ])
        var shape = JSONShape(enumerations: JSONContractTests.enumerations)
        shape.add(try #require(JSONValue(jsonText: selectJSON.stdout)))
        try JSONContractTests.compare(
            shape, "select", ["testledger select --package-path repo --format json, a change to one of two targets"])
        let chosen = try #require(
            try JSONSerialization.jsonObject(with: Data(selectJSON.stdout.utf8)) as? [String: Any])
        let targets = try #require(chosen["targets"] as? [[String: Any]])
        #expect(targets.map { $0["target"] as? String } == ["CartTests", "PaymentsTests"])
        #expect(targets.map { $0["runs"] as? Bool } == [false, true])
        #expect((targets[0]["vouchedBy"] as? [String: Any])?["run"] as? String == vouching)
        #expect(targets[1]["reason"] as? String == "depends on Payments: Sources/Payments/Payments.swift changed")
        #expect(chosen["changedFiles"] as? [String] == ["Sources/Payments/Payments.swift"])
        let arguments = try await cli.run([
            "select", "--project", "Shop", "--package-path", "repo", "--branch", "feature", "--format", "swift-test",
        ])
        #expect(
            arguments.stdout
                == #"--filter ^PaymentsTests(/|\.|$) --filter ^(CartTests\.CartTests/testANewCartIsEmpty|CartTests\.CartTests\.testANewCartIsEmpty)(/|$)"#
                + "\n")
        #expect(
            (chosen["alwaysRun"] as? [[String: Any]])?.first?["reason"] as? String
                == "unskippable (*/testANewCartIsEmpty)")

        let selected = try await Self.record(cli, ["--select", "--branch", "feature"])
        #expect(selected.status == 0, "\(selected.stderr.suffix(3_000))")
        #expect(
            selected.stderr.contains("select: 1 of 2 test targets run; CartTests not affected; 1 of their tests run"),
            "\(selected.stderr)")
        let run = try Self.runID(selected)
        let stored = try await Self.results(cli, run: run)
        #expect(
            stored.filter { $0.hasPrefix("CartTests.") } == [
                "CartTests.CartTests/testANewCartIsEmpty passed ",
                "CartTests.CartTests/testCheckoutCompletes skipped not-affected",
                "CartTests.CartTests/testTotalAddsThePrices skipped not-affected",
            ])
        #expect(stored.filter { $0.hasPrefix("PaymentsTests.") }.allSatisfy { $0.hasSuffix(" passed ") }, "\(stored)")
        #expect(stored.count == 6)
        #expect(try await Self.targetRows(cli, run: run) == ["CartTests 3 1 \(vouching) 1", "PaymentsTests 3 3 - -"])

        let report = try await cli.run(["report", "run", run])
        let sentence = "2 tests not run: their code did not change since run \(vouching.prefix(3))…"
        #expect(report.stdout.contains(sentence), "\(report.stdout)")
        let markdown = try await cli.run(["report", "run", run, "--format", "markdown"])
        #expect(markdown.stdout.contains(sentence), "the pull-request comment's text: \(markdown.stdout)")
        let json = try #require(try await cli.json(["report", "run", run]) as? [String: Any])
        let notAffected = try #require(json["notAffected"] as? [String: Any])
        #expect(notAffected["tests"] as? Int == 2)
        #expect((notAffected["vouchedBy"] as? [[String: Any]])?.first?["run"] as? String == vouching)

        let observed = try await Self.record(cli, ["--select", "--observe", "--branch", "feature"])
        #expect(observed.status == 0, "\(observed.stderr.suffix(3_000))")
        let observedRun = try Self.runID(observed)
        #expect(try await Self.results(cli, run: observedRun).allSatisfy { $0.hasSuffix(" passed ") })
        let selection = try #require(try await cli.json(["report", "selection"]) as? [String: Any])
        let runs = try #require(selection["runs"] as? [[String: Any]])
        #expect(runs.map { $0["run"] as? String } == [observedRun, run])
        #expect(runs.map { $0["mode"] as? String } == ["observed", "selected"])
        #expect(runs.map { ($0["missedFailures"] as? [String])?.count } == [0, 0])
        #expect(runs.allSatisfy { ($0["savedSeconds"] as? Double ?? 0) > 0 }, "\(runs)")
        #expect(runs.allSatisfy { $0["skippedTargets"] as? [String] == ["CartTests"] })
    }

    /// Tuist's failure: a run cut short, then a commit that changes only a README, and every test
    /// was skipped and called passed. Here nothing vouches for a run whose test process was killed.
    @Test func aKilledRunVouchesForNothingSoAReadmeChangeRunsEverything() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let repo = try await Self.repository(cli)
        try cli.directory.write(".testledger.yml", "select:\n  ignore: [\"*.md\"]\n")
        let killed = try await Self.record(
            cli, ["--select", "--branch", "main"], environment: ["SELECTED_SUITE_KILL": "1"])
        #expect(killed.status != 0, "the test process was killed")
        let killedRun = try Self.runID(killed)
        let crashed = try await Self.results(cli, run: killedRun).filter { $0.contains(" crashed ") }
        #expect(crashed == ["CartTests.CartTests/testCheckoutCompletes crashed "], "the test it killed")

        try Self.append("Read the docs.", to: "README.md", in: repo)
        try await Self.commit(repo, "readme")
        let listed = try await cli.run(["select", "--project", "Shop", "--package-path", "repo", "--branch", "main"])
        #expect(listed.stdout.contains("0 file(s) changed"), "the README is in the base already: \(listed.stdout)")
        let again = try await Self.record(cli, ["--select", "--branch", "main"])
        #expect(again.status == 0, "\(again.stderr.suffix(3_000))")
        #expect(again.stderr.contains("select: every test target runs (2 of 2)"), "\(again.stderr)")
        let stored = try await Self.results(cli, run: try Self.runID(again))
        #expect(stored.count == 6 && stored.allSatisfy { $0.hasSuffix(" passed ") }, "\(stored)")

        // A complete passing run vouches for both targets now; the test that crashed within the
        // window runs all the same.
        let chosen = try #require(
            try await cli.json(["select", "--project", "Shop", "--package-path", "repo", "--branch", "main"])
                as? [String: Any])
        #expect((chosen["targets"] as? [[String: Any]])?.map { $0["runs"] as? Bool } == [false, false])
        let kept = try #require(chosen["alwaysRun"] as? [[String: Any]])
        #expect(kept.map { $0["test"] as? String } == ["CartTests.CartTests/testCheckoutCompletes"])
        #expect(kept.first?["reason"] as? String == "failed or flaky within the window")
        let narrowed = try await Self.record(cli, ["--select", "--branch", "main"])
        #expect(narrowed.status == 0, "\(narrowed.stderr.suffix(3_000))")
        let leftOut = try await Self.results(cli, run: try Self.runID(narrowed))
        #expect(leftOut.filter { $0.hasSuffix(" skipped not-affected") }.count == 5, "\(leftOut)")
        #expect(leftOut.contains("CartTests.CartTests/testCheckoutCompletes passed "), "\(leftOut)")
    }

    /// A CI machine's ledger is new: with `TESTLEDGER_URL` and `TESTLEDGER_TOKEN`, the team server
    /// answers which runs vouch for the targets' hashes (`GET …/target-hashes`).
    @Test func onANewMachineTheServersRunsVouch() async throws {
        let team = try CLI()
        defer { team.directory.remove() }
        let repo = try await Self.repository(team)
        let vouching = try Self.runID(try await Self.record(team, ["--select", "--branch", "main"]))
        let token = try await team.token("Shop", "write")
        let server = try ServerProcess(team)
        defer { server.stop() }
        let remote = ["TESTLEDGER_URL": server.url, "TESTLEDGER_TOKEN": token]

        try await Self.git(repo, "checkout", "-q", "-b", "feature")
        try Self.append("// Rounds before charging.", to: "Sources/Payments/Payments.swift", in: repo)
        let machine = try CLI()
        defer { machine.directory.remove() }
        let select = [
            "select", "--project", "Shop", "--package-path", repo.path, "--branch", "feature", "--format", "json",
        ]
        let remoteChoice = try await machine.run(select, environment: remote)
        let chosen = try #require(
            try JSONSerialization.jsonObject(with: Data(remoteChoice.stdout.utf8)) as? [String: Any])
        let targets = try #require(chosen["targets"] as? [[String: Any]], "\(remoteChoice.stderr)")
        #expect(targets.map { $0["runs"] as? Bool } == [false, true], "\(remoteChoice.stderr)")
        #expect((targets[0]["vouchedBy"] as? [String: Any])?["run"] as? String == vouching)

        // The route as any HTTP client sees it: its answer, and a request without hashes refused.
        let hashes = #"{"CartTests":"\#(targets[0]["hash"] as? String ?? "")"}"#
        var address = try #require(URLComponents(string: server.url + "/api/v1/projects/Shop/target-hashes"))
        address.queryItems = [
            URLQueryItem(name: "hashes", value: hashes), URLQueryItem(name: "branch", value: "feature"),
        ]
        var request = URLRequest(url: try #require(address.url))
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (body, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let answer = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(((answer["vouches"] as? [String: Any])?["CartTests"] as? [String: Any])?["run"] as? String == vouching)
        #expect((answer["tests"] as? [String: [String]])?[vouching]?.count == 6)
        request.url = URL(string: server.url + "/api/v1/projects/Shop/target-hashes")
        let (refusal, refused) = try await URLSession.shared.data(for: request)
        #expect((refused as? HTTPURLResponse)?.statusCode == 400)
        #expect(String(decoding: refusal, as: UTF8.self).contains("?hashes="))

        server.stop()
        let offline = try await machine.run(select, environment: remote)
        #expect(offline.status == 0)
        #expect(
            offline.stderr.contains("could not read the runs that vouch for the test targets from"), "\(offline.stderr)"
        )
        #expect(offline.stdout.contains(#""runs" : true"#) && !offline.stdout.contains(#""runs" : false"#))
    }

    static func head(_ repo: URL) async throws -> String {
        let output = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["git", "-C", repo.path, "rev-parse", "HEAD"])
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A stored run of the fixture's six tests at `revision`, `failing` failed.
    static func storedRun(
        _ cli: CLI, _ name: String, revision: String, branch: String, at: Double, failing: String? = nil
    )
        async throws -> String
    {
        var script = RunScript(project: "Shop", revision: revision, at: at).start(source: "swift-test", branch: branch)
        let payments = [
            "anEmptyCartIsNotCharged()", "aCartIsChargedItsTotalRounded()", "aLargeChargeNeedsConfirmation()",
        ]
        for test in Self.cartTests + payments.map({ "PaymentsTests.PaymentsTests/" + $0 }) {
            script = script.result(test, test == failing ? .failed : .passed, duration: 2)
        }
        script = script.end()
        try cli.directory.write(name, script.ndjson)
        #expect(try await cli.run(["ingest", name]).status == 0)
        return script.run
    }

    /// `select --replay` over stored runs of three commits: what selection would have left out of
    /// each, and the failure it would have missed.
    @Test func replayRecomputesSelectionForTheLedgersRuns() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let repo = try await Self.repository(cli)
        let base = try await Self.head(repo)
        let first = try await Self.storedRun(cli, "r0.jsonl", revision: base, branch: "main", at: 1_000)
        try await Self.git(repo, "checkout", "-q", "-b", "feature")
        try Self.append("// Rounds before charging.", to: "Sources/Payments/Payments.swift", in: repo)
        try await Self.commit(repo, "payments")
        let payments = try await Self.head(repo)
        let second = try await Self.storedRun(
            cli, "r1.jsonl", revision: payments, branch: "feature", at: 2_000,
            failing: "PaymentsTests.PaymentsTests/aLargeChargeNeedsConfirmation()")
        // The same commit again, and a CartTests test fails: selection, trusting the first run,
        // would have left it out.
        let third = try await Self.storedRun(
            cli, "r2.jsonl", revision: payments, branch: "feature", at: 3_000,
            failing: "CartTests.CartTests/testANewCartIsEmpty")
        try Self.append("// Totals in cents.", to: "Sources/Cart/Cart.swift", in: repo)
        try await Self.commit(repo, "cart")
        let fourth = try await Self.storedRun(
            cli, "r3.jsonl", revision: try await Self.head(repo), branch: "feature", at: 4_000)

        let replay = try await cli.run([
            "select", "--replay", "--project", "Shop", "--package-path", "repo", "--format", "json",
        ])
        #expect(replay.status == 0, "\(replay.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(replay.stdout.utf8)) as? [String: Any])
        let runs = try #require(report["runs"] as? [[String: Any]])
        #expect(runs.map { $0["run"] as? String } == [fourth, third, second, first])
        #expect(runs.allSatisfy { $0["mode"] as? String == "replayed" })
        #expect(runs.map { $0["skippedTargets"] as? [String] } == [[], ["CartTests"], ["CartTests"], []])
        #expect(
            runs.map { $0["missedFailures"] as? [String] } == [[], ["CartTests.CartTests/testANewCartIsEmpty"], [], []])
        #expect(runs.map { $0["savedSeconds"] as? Double } == [0, 6, 6, 0])
        #expect(report["missedFailures"] as? Int == 1)
        #expect(report["savedShare"] as? Double == 12.0 / 48)
        let table = try await cli.run(["select", "--replay", "--project", "Shop", "--package-path", "repo"])
        #expect(table.stdout.contains("4 run(s): 1 failure(s) missed"), "\(table.stdout)")
    }
}
