import Foundation
import LedgerTestSupport
import Testing

@Suite struct IngestCommandTests {
    let junit = """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites>
        <testsuite name="TestResults" errors="0" tests="99" failures="99" time="0.5">
        <testcase classname="AppTests.CartTests" name="testTotal" time="0.01"></testcase>
        <testcase classname="AppTests.CartTests" name="testDiscount" time="0.02">
        <failure message="failed"></failure>
        </testcase>
        <testcase classname="AppUITests.CheckoutUITests" name="testPay" time="2.5"></testcase>
        </testsuite>
        </testsuites>
        """

    @Test func ingestsAFileOnceEvenWhenSentTwice() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let file = try cli.directory.write("results.xml", junit)
        let first = try await cli.run(["ingest", file.path])
        #expect(first.status == 0)
        #expect(first.stdout.contains("junit, 3 result(s) stored"))
        let second = try await cli.run(["ingest", file.path])
        #expect(second.stdout.contains("0 result(s) stored, 3 already stored"))
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.count == 1)
        #expect(runs.first?["tests"] as? Int == 3)
        #expect(runs.first?["failed"] as? Int == 1)
        #expect(runs.first?["passed"] as? Int == 2)
        #expect(runs.first?["source"] as? String == "junit")
    }

    @Test func aRepeatedTestcaseIsATestOfItsOwnUnlessRepeatsSaysRetries() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let file = try cli.directory.write(
            "mocha.xml",
            """
            <testsuites name="Mocha Tests"><testsuite name="Cart">
            <testcase classname="Cart" name="adds" time="0.1"><failure message="expected 2"/></testcase>
            <testcase classname="Cart" name="adds" time="0.1"/>
            </testsuite></testsuites>
            """)
        let apart = try await cli.run(["ingest", file.path])
        #expect(apart.status == 0)
        #expect(apart.stdout.contains("junit, 2 result(s) stored"))
        #expect(
            apart.stderr.contains(
                "1 testcase(s) repeat an earlier one's classname and name and are stored as tests of their own, such as \"Cart/adds (2)\"; if they are retries, ingest the file with --repeats retries"
            ))
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(
            runs.first?["tests"] as? Int == 2 && runs.first?["failed"] as? Int == 1 && runs.first?["flaky"] as? Int == 0
        )

        let retried = try await cli.run([
            "ingest", "--repeats", "retries", "--db", cli.directory.path("retried.sqlite"), file.path,
        ])
        #expect(retried.stderr.contains("are stored as its retries (--repeats retries)"))
        let flaky = try #require(
            try await cli.json(["runs", "--db", cli.directory.path("retried.sqlite")]) as? [[String: Any]])
        #expect(
            flaky.first?["tests"] as? Int == 1 && flaky.first?["failed"] as? Int == 0
                && flaky.first?["flaky"] as? Int == 1)

        let wrong = try await cli.run(["ingest", "--repeats", "maybe", file.path])
        #expect(wrong.status != 0 && wrong.stderr.contains("retries"))
    }

    @Test func readsStandardInput() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try await cli.run(
            ["ingest", "-"], stdin: RunScript().start().pass("A/a").fail("A/b").end().ndjson)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("-: ledger, 2 result(s) stored"))
    }

    @Test func aStreamOfManyRunsNamesAFewAndCountsTheRest() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let runs = (1...7).map { String(format: "00000000-0000-4000-8000-%012d", $0) }
        let scripts = runs.enumerated().map { index, run in
            RunScript(run: run, at: 1_700_000_000 + Double(index) * 60).start().pass("A/a").fail("A/b").end()
        }
        let many = try await cli.run(["ingest", "-"], stdin: scripts.map(\.ndjson).joined())
        #expect(many.status == 0, "\(many.stderr)")
        #expect(
            many.stdout.contains(
                "-: ledger, 14 result(s) stored (7 runs: \(runs[0]), \(runs[1]), \(runs[2]) and 4 more)"),
            "\(many.stdout)")
        #expect(!many.stdout.contains(runs[3]))
        let ids = (8...9).map { String(format: "00000000-0000-4000-8000-%012d", $0) }
        let pair = ids.map { RunScript(run: $0).start().pass("B/a").end() }
        let two = try await cli.run(["ingest", "-"], stdin: pair.map(\.ndjson).joined())
        #expect(two.stdout.contains("(runs \(ids[0]), \(ids[1]))"), "\(two.stdout) \(two.stderr)")
        #expect(try #require(try await cli.json(["runs"]) as? [[String: Any]]).count == 9)
    }

    @Test func aBadLineNamesFileAndLineAndStoresNothing() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        var lines = RunScript().start().pass("A/a").pass("A/b").end().ndjson.split(separator: "\n").map(String.init)
        lines[3] = #"{"v":1,"type":"test.end","run":"#
        let file = try cli.directory.write("broken.ndjson", lines.joined(separator: "\n"))
        let output = try await cli.run(["ingest", file.path])
        #expect(output.status != 0)
        #expect(output.stderr.contains("broken.ndjson:4: not valid JSON"))
        let runs = try #require(try await cli.json(["runs"]) as? [Any])
        #expect(runs.isEmpty)
    }

    @Test func unknownFormatsAreRefusedWithTheFix() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let file = try cli.directory.write("notes.txt", "hello\n")
        let output = try await cli.run(["ingest", file.path])
        #expect(output.status != 0)
        #expect(output.stderr.contains("notes.txt:1: not a format testledger reads"))
        #expect(output.stderr.contains("--format"))
        let missing = try await cli.run(["ingest", "nowhere.xml"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("nowhere.xml: no such file"))
    }

    @Test func twoProcessesWriteOneDatabaseAtOnce() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let files = try (0..<2).map { writer -> URL in
            var text = ""
            for run in 0..<5 {
                var script = RunScript().start()
                for test in 0..<400 { script = script.pass("W\(writer).R\(run)/t\(test)") }
                text += script.end().ndjson
            }
            return try cli.directory.write("w\(writer).ndjson", text)
        }
        try await cli.run(["runs"])  // creates and migrates the file before the race
        async let first = cli.run(["ingest", files[0].path])
        async let second = cli.run(["ingest", files[1].path])
        let outputs = try await [first, second]
        #expect(outputs.allSatisfy { $0.status == 0 }, "\(outputs.map(\.stderr))")
        let runs = try #require(try await cli.json(["runs", "--limit", "100"]) as? [[String: Any]])
        #expect(runs.count == 10)
        #expect(runs.map { $0["tests"] as? Int ?? 0 }.reduce(0, +) == 4_000)
    }

    @Test func runMetadataComesFromFlagsThenCIVariables() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let file = try cli.directory.write("results.xml", junit)
        let env = [
            "GITHUB_ACTIONS": "true", "GITHUB_SHA": "abc123", "GITHUB_REF_NAME": "main", "GITHUB_RUN_ID": "77",
            "GITHUB_REPOSITORY": "acme/shop",
        ]
        try await cli.run(["ingest", file.path, "--branch", "release"], environment: env)
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.first?["revision"] as? String == "abc123")
        #expect(runs.first?["branch"] as? String == "release")
        #expect(runs.first?["build"] as? String == "77")
        #expect(runs.first?["project"] as? String == "shop")
    }

    @Test func aCopiedBinaryCreatesItsDatabaseAlone() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let copy = cli.directory.url.appending(path: "bin/testledger")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.binary, to: copy)
        let file = try cli.directory.write("results.xml", junit)
        let output = try await cli.run(
            ["ingest", file.path, "--db", cli.directory.path("fresh/ledger.sqlite")], executable: copy)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(FileManager.default.fileExists(atPath: cli.directory.path("fresh/ledger.sqlite")))
    }
}
