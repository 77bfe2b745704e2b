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

    @Test func ingestsAFileOnceEvenWhenSentTwice() throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let file = try cli.directory.write("results.xml", junit)
        let first = try cli.run(["ingest", file.path])
        #expect(first.status == 0)
        #expect(first.stdout.contains("junit, 3 result(s) stored"))
        let second = try cli.run(["ingest", file.path])
        #expect(second.stdout.contains("0 result(s) stored, 3 already stored"))
        let runs = try #require(try cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.count == 1)
        #expect(runs.first?["tests"] as? Int == 3)
        #expect(runs.first?["failed"] as? Int == 1)
        #expect(runs.first?["passed"] as? Int == 2)
        #expect(runs.first?["source"] as? String == "junit")
    }

    @Test func readsStandardInput() throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try cli.run(["ingest", "-"], stdin: RunScript().start().pass("A/a").fail("A/b").end().ndjson)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("-: ledger, 2 result(s) stored"))
    }

    @Test func aBadLineNamesFileAndLineAndStoresNothing() throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        var lines = RunScript().start().pass("A/a").pass("A/b").end().ndjson.split(separator: "\n").map(String.init)
        lines[3] = #"{"v":1,"type":"test.end","run":"#
        let file = try cli.directory.write("broken.ndjson", lines.joined(separator: "\n"))
        let output = try cli.run(["ingest", file.path])
        #expect(output.status != 0)
        #expect(output.stderr.contains("broken.ndjson:4: not valid JSON"))
        let runs = try #require(try cli.json(["runs"]) as? [Any])
        #expect(runs.isEmpty)
    }

    @Test func unknownFormatsAreRefusedWithTheFix() throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let file = try cli.directory.write("notes.txt", "hello\n")
        let output = try cli.run(["ingest", file.path])
        #expect(output.status != 0)
        #expect(output.stderr.contains("notes.txt:1: not a format testledger reads"))
        #expect(output.stderr.contains("--format"))
        let missing = try cli.run(["ingest", "nowhere.xml"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("nowhere.xml: no such file"))
    }

    @Test func twoProcessesWriteOneDatabaseAtOnce() throws {
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
        try cli.run(["runs"])  // creates and migrates the file before the race
        let outputs = UnsafeOutputs()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            outputs.set(index, try? cli.run(["ingest", files[index].path]))
        }
        #expect(outputs.all.allSatisfy { $0?.status == 0 })
        let runs = try #require(try cli.json(["runs", "--limit", "100"]) as? [[String: Any]])
        #expect(runs.count == 10)
        #expect(runs.map { $0["tests"] as? Int ?? 0 }.reduce(0, +) == 4_000)
    }

    @Test func runMetadataComesFromFlagsThenCIVariables() throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let file = try cli.directory.write("results.xml", junit)
        let env = [
            "GITHUB_ACTIONS": "true", "GITHUB_SHA": "abc123", "GITHUB_REF_NAME": "main", "GITHUB_RUN_ID": "77",
            "GITHUB_REPOSITORY": "acme/shop",
        ]
        try cli.run(["ingest", file.path, "--branch", "release"], environment: env)
        let runs = try #require(try cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.first?["revision"] as? String == "abc123")
        #expect(runs.first?["branch"] as? String == "release")
        #expect(runs.first?["build"] as? String == "77")
        #expect(runs.first?["project"] as? String == "shop")
    }

    @Test func aCopiedBinaryCreatesItsDatabaseAlone() throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let copy = cli.directory.url.appending(path: "bin/testledger")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.binary, to: copy)
        let file = try cli.directory.write("results.xml", junit)
        let output = try cli.run(
            ["ingest", file.path, "--db", cli.directory.path("fresh/ledger.sqlite")], executable: copy)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(FileManager.default.fileExists(atPath: cli.directory.path("fresh/ledger.sqlite")))
    }
}

/// Results written from concurrent iterations.
final class UnsafeOutputs: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Int: CLI.Output?] = [:]

    func set(_ index: Int, _ value: CLI.Output?) { lock.withLock { values[index] = value } }
    var all: [CLI.Output?] { lock.withLock { values.keys.sorted().map { values[$0] ?? nil } } }
}

extension IngestCommandTests {
    @Test func injectionInTestNamesIsStoredAsText() throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let names = ["'; DROP TABLE run; --", "<script>alert(1)</script>", "x\"); DELETE FROM result; --"]
        var script = RunScript().start()
        for name in names { script = script.fail(name) }
        for run in 0..<3 {
            var again = RunScript(at: Double(1_800_000_000 + run)).start()
            for name in names { again = again.result(name, run % 2 == 0 ? .passed : .failed) }
            try cli.run(["ingest", "-"], stdin: again.end().ndjson)
        }
        #expect(try cli.run(["ingest", "-"], stdin: script.end().ndjson).status == 0)
        let runs = try #require(try cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.count == 4)
        let report = try #require(try cli.json(["report", "flaky"]) as? [String: Any])
        let flaky = try #require(report["flaky"] as? [[String: Any]])
        #expect(Set(flaky.compactMap { $0["test"] as? String }) == Set(names))
    }
}

extension IngestCommandTests {
    @Test(.enabled(if: FixtureFiles.available, Comment(rawValue: FixtureFiles.skipReason)))
    func detectsEachSampleFormatFromItsContent() throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let expected = [
            "tap13-node-test-runner.tap": "tap", "tap14-nested-subtests-todo.tap": "tap", "rspec.json": "rspec",
            "xcresult-tests-Xcode16-Mixed-XCTest-SwiftTesting.json": "xcresult",
            "junit-pytest.xml": "junit",
        ]
        for (name, format) in expected {
            let url = try #require(FixtureFiles.url(name))
            let output = try cli.run(["ingest", url.path])
            #expect(output.status == 0, "\(name): \(output.stderr)")
            #expect(output.stdout.contains(": \(format), "), "\(name): \(output.stdout)")
        }
        let runs = try #require(try cli.json(["runs"]) as? [[String: Any]])
        #expect(Set(runs.compactMap { $0["source"] as? String }) == ["tap", "rspec", "xcresult", "junit"])
    }
}
