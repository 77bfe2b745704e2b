import Foundation
import LedgerTestSupport
import Testing

/// `.xcresult` bundles and `record -- xcodebuild test`, with stand-ins for `xcrun` and `xcodebuild`
/// on `PATH` that answer as Xcode's did for a real bundle (Tests/Fixtures/XCResultBundle).
@Suite struct XcodebuildCommandTests {
    static let standIns = CLI.packageRoot.appending(path: "Tests/Fixtures/XCResultBundle/bin").path
    static let launch = "RandomStuffUITests.RandomStuffUITestsLaunchTests/testLaunch (Light Appearance, Portrait)"

    func environment(_ cli: CLI, _ extra: [String: String] = [:]) -> [String: String] {
        [
            "PATH": Self.standIns + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "XCRUN_LOG": cli.directory.path("xcrun.log"), "XCODEBUILD_LOG": cli.directory.path("xcodebuild.log"),
        ].merging(extra) { _, given in given }
    }

    func log(_ cli: CLI, _ name: String) -> String {
        (try? String(contentsOfFile: cli.directory.path(name), encoding: .utf8)) ?? ""
    }

    @Test func aBundleIsReadWithItsActivitiesAndAttachments() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try cli.directory.write("Test-RandomStuff.xcresult/Info.plist", "{}")
        let kept = cli.directory.path("attachments")
        let ingested = try await cli.run(
            ["ingest", "--project", "Shop", "--attachments", kept, "Test-RandomStuff.xcresult"],
            environment: environment(cli))
        #expect(ingested.status == 0, "\(ingested.stderr)")
        #expect(
            ingested.stdout.contains("Test-RandomStuff.xcresult: xcresult, 8 result(s) stored"), "\(ingested.stdout)")
        // One `activities` call per test case, each with its own id.
        let calls = log(cli, "xcrun.log").split(separator: "\n")
        #expect(calls.filter { $0.contains("activities --test-id") }.count == 5, "\(calls)")
        #expect(calls.contains { $0.contains("--test-id RandomStuffUITestsLaunchTests/testLaunch ") })

        let shown = try #require(try await cli.json(["show", Self.launch]) as? [String: Any])
        let activities = try #require(shown["activities"] as? [[String: Any]])
        #expect(activities.first?["name"] as? String == "Setting device orientation to Portrait")
        #expect((activities.first?["children"] as? [[String: Any]])?.count == 2)
        let attachments = try #require(shown["attachments"] as? [[String: Any]])
        #expect(attachments.count == 1)
        #expect(attachments.first?["name"] as? String == "Launch Screen")
        #expect(attachments.first?["mediaType"] as? String == "image/png" && attachments.first?["size"] as? Int == 2048)
        let path = try #require(attachments.first?["path"] as? String)
        #expect(path.hasPrefix(kept + "/Test-RandomStuff.xcresult/"))
        #expect((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) == 2048, "the payload is kept")
        let text = try await cli.run(["show", Self.launch])
        #expect(
            text.stdout.contains("Launch Screen in \"Added attachment named 'Launch Screen'\" (image/png, 2.0 KiB)"))

        let again = try await cli.run(
            ["ingest", "--project", "Shop", "Test-RandomStuff.xcresult"], environment: environment(cli))
        #expect(again.stdout.contains("8 already stored"), "the same bundle is one run: \(again.stdout)")
    }

    @Test func withoutXcodeTheErrorSaysHowToPassTheJSON() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try cli.directory.write("Run.xcresult/Info.plist", "{}")
        let refused = try await cli.run(["ingest", "Run.xcresult"], environment: ["PATH": "/nonexistent"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("Run.xcresult: reading a .xcresult bundle needs Xcode's xcresulttool"))
        #expect(refused.stderr.contains("--format json > results.json` and ingest results.json here"))
        let runs = try await cli.run(["runs", "--format", "json"])
        #expect(runs.status == 0 && !runs.stdout.contains("\"id\""), "nothing stored: \(runs.stdout)")
        // The JSON itself is read anywhere.
        let json = CLI.packageRoot.appending(path: "Tests/Fixtures/XCResultBundle/tests.json").path
        let read = try await cli.run(["ingest", json])
        #expect(read.status == 0 && read.stdout.contains("xcresult, 8 result(s) stored"), "\(read.stderr)")
    }

    @Test func aFolderOfBundlesAndFiles() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try cli.directory.write("results/ios/Run.xcresult/Data/data.0", "binary")
        try cli.directory.write(
            "results/unit.xml", #"<testsuite name="s"><testcase classname="App.A" name="b"/></testsuite>"#)
        let ingested = try await cli.run(["ingest", "--project", "Shop", "results"], environment: environment(cli))
        #expect(ingested.status == 0, "\(ingested.stderr)")
        #expect(
            ingested.stdout.contains("results/ios/Run.xcresult: xcresult, 8 result(s) stored"), "\(ingested.stdout)")
        #expect(ingested.stdout.contains("results/unit.xml: junit, 1 result(s) stored"))
        #expect(!ingested.stdout.contains("data.0"), "nothing inside the bundle is read as a file")
    }

    @Test func recordRunsXcodebuildAndReadsItsBundle() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let seeded = try await cli.run(
            [
                "ingest", "--project", "Shop",
                CLI.packageRoot.appending(path: "Tests/Fixtures/XCResultBundle/tests.json").path,
            ])
        #expect(seeded.status == 0)
        let skipped = "RandomStuffUITests.RandomStuffUITests/testLaunchPerformance()"
        #expect(
            try await cli.run(["quarantine", "add", skipped, "--mode", "skip", "--reason", "slow", "--project", "Shop"])
                .status == 0)
        let recorded = try await cli.run(
            [
                "record", "--project", "Shop", "--", "xcodebuild", "test", "-scheme", "RandomStuff", "-destination",
                "platform=iOS Simulator,name=iPhone 17 Pro",
            ], environment: environment(cli, ["XCODEBUILD_ENDS": "65"]))
        #expect(recorded.status == 65, "xcodebuild's status: \(recorded.stderr)")
        #expect(recorded.stdout.contains("** TEST FAILED **"), "its output passes through")
        let log = log(cli, "xcodebuild.log")
        #expect(log.contains("-resultBundlePath /") && log.contains("Tests.xcresult"), "\(log)")
        #expect(log.contains("-skip-testing:RandomStuffUITests/RandomStuffUITests/testLaunchPerformance()"))
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        let run = try #require(runs.first { $0["source"] as? String == "xcodebuild" }, "\(runs)")
        #expect(log.contains("TEST_RUNNER_TESTLEDGER_RUN=\(run["id"] as? String ?? "?")"), "\(log)")
        #expect(log.contains("TEST_RUNNER_TESTLEDGER_JOURNAL_ONLY=1"))
        // The bundle's 8 less the test the quarantine skips, which xcodebuild (here its stand-in) never ran.
        #expect(run["tests"] as? Int == 7 && run["status"] as? String == "failed", "\(run)")
        let shown = try #require(
            try await cli.json(["show", Self.launch, "--run", run["id"] as? String ?? ""]) as? [String: Any])
        #expect((shown["activities"] as? [Any])?.isEmpty == false)
    }

    @Test func anInterruptedXcodebuildKeepsWhatTheBundleHolds() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let recorded = try await cli.run(
            ["record", "--project", "Shop", "--", "xcodebuild", "test", "-resultBundlePath", "out/Mine.xcresult"],
            environment: environment(cli, ["XCODEBUILD_ENDS": "interrupt"]))
        #expect(recorded.status == 130, "\(recorded.stderr)")
        let log = log(cli, "xcodebuild.log")
        #expect(log.components(separatedBy: "-resultBundlePath").count == 2, "the given bundle path is kept: \(log)")
        #expect(FileManager.default.fileExists(atPath: cli.directory.path("out/Mine.xcresult")))
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.first?["tests"] as? Int == 8 && runs.first?["status"] as? String == "interrupted", "\(runs)")
    }
}
