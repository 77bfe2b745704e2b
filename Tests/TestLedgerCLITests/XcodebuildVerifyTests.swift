import Foundation
import LedgerTestSupport
import Testing

/// `testledger verify -- xcodebuild test` with the stand-ins for `xcodebuild` and `xcrun`: one
/// xcodebuild runs the test `-test-iterations N -run-tests-until-failure`, and each repetition in its
/// result bundle is an attempt of the verification run.
@Suite struct XcodebuildVerifyTests {
    static let example = "RandomStuffTests.RandomStuffTests/testExample()"

    /// The stand-in bundle's tests document, `testExample()` repeated with these results.
    func testsDocument(_ cli: CLI, repetitions: [Bool]) throws -> String {
        let fixture = CLI.packageRoot.appending(path: "Tests/Fixtures/XCResultBundle/tests.json")
        var text = try String(contentsOf: fixture, encoding: .utf8)
        let children = repetitions.enumerated().map { index, passed in
            let failure =
                passed
                ? ""
                : #", "children": [{"nodeType": "Failure Message", "name": "RandomStuffTests.swift:12: the cache was cold", "result": "Failed"}]"#
            return
                #"{"nodeType": "Repetition", "name": "Repetition \#(index + 1)", "result": "\#(passed ? "Passed" : "Failed")", "durationInSeconds": 0.01\#(failure)}"#
        }
        let node = #""nodeIdentifier" : "RandomStuffTests/testExample()","#
        let range = try #require(text.range(of: node))
        text.replaceSubrange(range, with: node + #" "children": [\#(children.joined(separator: ", "))],"#)
        return try cli.directory.write("tests-\(repetitions.count).json", text).path
    }

    func verify(_ cli: CLI, repetitions: [Bool], _ options: [String]) async throws -> CLI.Output {
        try await cli.run(
            ["verify", Self.example, "--project", "Shop"] + options + [
                "--", "xcodebuild", "test", "-scheme", "RandomStuff", "-destination",
                "platform=iOS Simulator,name=iPhone 17 Pro",
            ],
            environment: XcodebuildCommandTests().environment(
                cli, ["XCRESULT_TESTS": try testsDocument(cli, repetitions: repetitions)]))
    }

    @Test func oneXcodebuildRunsTheIterationsAndEachIsAnAttempt() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let fixed = try await verify(cli, repetitions: Array(repeating: true, count: 5), ["--rate", "0.5"])
        #expect(fixed.status == 0, "\(fixed.stdout.suffix(800)) \(fixed.stderr)")
        #expect(
            fixed.stdout.contains("\(Self.example): fixed: 5 of 5 passed — at 95 % confidence"),
            "\(fixed.stdout.suffix(800))")
        let log = XcodebuildCommandTests().log(cli, "xcodebuild.log")
        let calls = log.split(separator: "\n").filter { $0.hasPrefix("args: ") }
        #expect(calls.count == 1, "one xcodebuild: \(calls)")
        #expect(
            calls.first?.hasSuffix(
                " -only-testing:RandomStuffTests/RandomStuffTests/testExample() -test-iterations 5 -run-tests-until-failure"
            ) == true, "\(calls)")
        #expect(calls.first?.contains("args: test -scheme RandomStuff -destination") == true)
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        let run = try #require(runs.first?["id"] as? String)
        #expect(log.contains("TEST_RUNNER_TESTLEDGER_RUN=\(run)"), "the library in the tests joins the run")
        let shown = try #require(try await cli.json(["show", Self.example]) as? [String: Any])
        #expect(shown["attempts"] as? [String] == Array(repeating: "passed", count: 5), "\(shown)")
        // A verification run is history, not one of the suite's runs.
        let pyramid = try await cli.run(["report", "pyramid", "--project", "Shop"])
        #expect(pyramid.status != 0 && pyramid.stderr.contains("no run"), "\(pyramid.stdout)\(pyramid.stderr)")

        let failing = try await verify(cli, repetitions: [true, true, false], ["--rate", "0.5", "--format", "json"])
        #expect(failing.status == 10, "\(failing.stderr)")
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(failing.stdout.utf8)) as? [String: Any], "\(failing.stdout)")
        #expect(report["verdict"] as? String == "still-flaky" && report["runs"] as? Int == 3, "\(report)")
        let failure = try #require(report["firstFailure"] as? [String: Any])
        #expect(failure["attempt"] as? Int == 3 && (failure["message"] as? String)?.contains("cold") == true)
    }

    @Test func theCommandMayNotChooseItsOwnIterations() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let refused = try await cli.run(
            ["verify", Self.example, "--rate", "0.5", "--", "xcodebuild", "test", "-test-iterations", "3"],
            environment: XcodebuildCommandTests().environment(cli))
        #expect(refused.status == 64 && refused.stderr.contains("leave out -test-iterations"), "\(refused.stderr)")
        let commandless = try await cli.run(["verify", Self.example, "--rate", "0.5"])
        #expect(commandless.status == 64 && commandless.stderr.contains("after --"), "\(commandless.stderr)")
    }
}
