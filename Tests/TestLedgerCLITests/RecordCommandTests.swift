import Foundation
import LedgerTestSupport
import Testing

/// Runs the real `swift test` on Examples/Demo through `testledger record`.
@Suite(.serialized) struct RecordCommandTests {
    let demo = CLI.packageRoot.appending(path: "Examples/Demo").path

    func swiftTest(_ extra: [String] = []) -> [String] {
        ["swift", "test", "--package-path", demo, "--scratch-path", CLI.scratchPath(for: "Demo")] + extra
    }

    @Test func recordsXCTestAndSwiftTestingFromSwiftTest() throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try cli.run(["record", "--"] + swiftTest())
        #expect(output.status == 0, "\(output.stderr.suffix(2_000))")
        #expect(output.stdout.contains("Test Suite 'All tests'"), "the command's output is passed through")
        #expect(output.stdout.contains("12 tests — 11 passed, 0 failed, 1 skipped"))
        #expect(output.stdout.contains("layers: unit 9, integration 2, ui 1 (pyramid)"))
        let runs = try #require(try cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.first?["source"] as? String == "swift-test")
        #expect(runs.first?["status"] as? String == "passed")
        let pyramid = try #require(try cli.json(["report", "pyramid"]) as? [String: Any])
        #expect((pyramid["layers"] as? [[String: Any]])?.map { $0["tests"] as? Int } == [9, 2, 1])
    }

    @Test func recordsXCTestFromTheXUnitFileInParallelMode() throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try cli.run(["record", "--"] + swiftTest(["--parallel"]))
        #expect(output.status == 0, "\(output.stderr.suffix(2_000))")
        #expect(output.stdout.contains("12 tests — 11 passed, 0 failed, 1 skipped"))
    }

    @Test func realXUnitFilesFromSwiftTestAreIngested() throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let xunit = cli.directory.path("xunit.xml")
        let test = Process()
        test.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        test.arguments = swiftTest(["--parallel", "--xunit-output", xunit])
        test.standardOutput = FileHandle.nullDevice
        try test.run()
        test.waitUntilExit()
        let xctest = try cli.run(["ingest", xunit])
        #expect(xctest.stdout.contains("junit, 7 result(s) stored"), "\(xctest.stdout)\(xctest.stderr)")
        let swiftTesting = try cli.run(["ingest", cli.directory.path("xunit-swift-testing.xml")])
        #expect(
            swiftTesting.stdout.contains("junit, 5 result(s) stored"), "\(swiftTesting.stdout)\(swiftTesting.stderr)")
        let runs = try #require(try cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.map { $0["skipped"] as? Int }.contains(1), "Swift Testing's xUnit marks the skip")
    }

    @Test func theCommandsExitStatusIsKept() throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let results = try cli.directory.write(
            "out/junit.xml",
            #"<testsuite name="s"><testcase classname="A" name="b"><failure message="no"/></testcase></testsuite>"#)
        let output = try cli.run([
            "record", "--junit", results.deletingLastPathComponent().path, "--", "sh", "-c", "echo ran; exit 3",
        ])
        #expect(output.status == 3)
        #expect(output.stdout.contains("ran"))
        #expect(output.stdout.contains("1 tests — 0 passed, 1 failed"))
        let runs = try #require(try cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.first?["status"] as? String == "failed")
    }
}
