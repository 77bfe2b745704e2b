import Foundation
import LedgerTestSupport
import Testing

/// `record --select -- xcodebuild test` with the stand-in xcodebuild, in a package whose test
/// targets are the fixture bundle's: RandomStuffTests depends on RandomStuff, RandomStuffUITests on
/// nothing of the package.
@Suite struct XcodebuildSelectTests {
    static let manifest = """
        // swift-tools-version:6.1
        import PackageDescription

        let package = Package(
            name: "RandomStuff",
            targets: [
                .target(name: "RandomStuff"),
                .testTarget(name: "RandomStuffTests", dependencies: ["RandomStuff"]),
                .testTarget(name: "RandomStuffUITests"),
            ]
        )
        """

    /// The fixture bundle's tests document with the unit test bundle alone: what a run given
    /// `-only-testing:RandomStuffTests` writes.
    static func unitTestsOnly() throws -> Data {
        let fixture = CLI.packageRoot.appending(path: "Tests/Fixtures/XCResultBundle/tests.json")
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: fixture)) as? [String: Any])
        var plans = try #require(document["testNodes"] as? [[String: Any]])
        let bundles = try #require(plans[0]["children"] as? [[String: Any]])
        plans[0]["children"] = bundles.filter { $0["name"] as? String == "RandomStuffTests" }
        document["testNodes"] = plans
        return try JSONSerialization.data(withJSONObject: document)
    }

    @Test func onlyTheAffectedSwiftPMTestTargetRunsAndTheOtherIsStoredNotAffected() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try cli.directory.write("Package.swift", Self.manifest)
        try cli.directory.write("Sources/RandomStuff/Random.swift", "public func roll() -> Int { 4 }\n")
        try cli.directory.write("Tests/RandomStuffTests/RandomStuffTests.swift", "// the bundle's\n")
        try cli.directory.write("Tests/RandomStuffUITests/RandomStuffUITests.swift", "// the bundle's\n")
        try cli.directory.write(".gitignore", "*.log\n*.xcresult\nscript/\n")
        let repo = cli.directory.url
        try await RecordSelectTests.git(repo, "init", "-q", "-b", "main")
        try await RecordSelectTests.commit(repo, "base")
        let script = cli.directory.url.appending(path: "script")
        try FileManager.default.createDirectory(at: script, withIntermediateDirectories: true)
        try Self.unitTestsOnly().write(to: script.appending(path: "2.json"))
        let environment = XcodebuildCommandTests().environment(cli, ["XCODEBUILD_SCRIPT": script.path])
        let command = ["--", "xcodebuild", "test", "-scheme", "RandomStuff"]

        let first = try await cli.run(
            ["record", "--project", "Shop", "--select", "--branch", "main"] + command, environment: environment)
        #expect(first.status == 0, "\(first.stdout.suffix(2_000))\(first.stderr.suffix(2_000))")
        #expect(first.stderr.contains("select: every test target runs (2 of 2)"), "\(first.stderr)")

        try RecordSelectTests.append(
            "public func twice() -> Int { 8 }", to: "Sources/RandomStuff/Random.swift", in: repo)
        let second = try await cli.run(
            ["record", "--project", "Shop", "--select", "--branch", "main"] + command, environment: environment)
        #expect(second.status == 0, "\(second.stdout.suffix(2_000))\(second.stderr.suffix(2_000))")
        #expect(second.stderr.contains("1 of 2 test targets run; RandomStuffUITests not affected"), "\(second.stderr)")
        let runs = XcodebuildCommandTests().log(cli, "xcodebuild.log").split(separator: "\n").filter {
            $0.hasPrefix("args: ") && !$0.contains("-enumerate-tests")
        }
        #expect(runs.count == 2)
        #expect(runs.last?.hasSuffix(" -only-testing:RandomStuffTests") == true, "\(runs)")
        let stored = try await RecordSelectTests.results(cli, run: try RecordSelectTests.runID(second))
        #expect(
            stored == [
                "RandomStuffTests.RandomStuffTests/testExample() passed ",
                "RandomStuffTests.RandomStuffTests/testPerformanceExample() passed ",
                "RandomStuffUITests.RandomStuffUITests/testExample() skipped not-affected",
                "RandomStuffUITests.RandomStuffUITests/testLaunchPerformance() skipped not-affected",
                "RandomStuffUITests.RandomStuffUITestsLaunchTests/testLaunch() skipped not-affected",
            ], "\(stored)")
    }

    @Test func anXcodeProjectsSchemeRunsEverythingAndSaysWhy() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let output = try await cli.run(
            [
                "record", "--project", "Shop", "--select", "--", "xcodebuild", "test", "-project", "App.xcodeproj",
                "-scheme", "App",
            ], environment: XcodebuildCommandTests().environment(cli))
        #expect(output.stderr.contains("select: every test runs: the scheme is an Xcode project's"), "\(output.stderr)")
        let args = XcodebuildCommandTests().log(cli, "xcodebuild.log")
        #expect(!args.contains("-only-testing"), "\(args)")
    }

    @Test func aProjectBesideThePackageOrATestTheGraphLacksRunsEverything() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        // The unit tests' target alone: the bundle's UI tests are of a target the package lacks.
        try cli.directory.write(
            "Package.swift",
            Self.manifest.split(separator: "\n").filter { !$0.contains("RandomStuffUITests") }.joined(separator: "\n"))
        try cli.directory.write("Sources/RandomStuff/Random.swift", "public func roll() -> Int { 4 }\n")
        try cli.directory.write("Tests/RandomStuffTests/RandomStuffTests.swift", "// the bundle's\n")
        try cli.directory.write(".gitignore", "*.log\n*.xcresult\n")
        try await RecordSelectTests.git(cli.directory.url, "init", "-q", "-b", "main")
        try await RecordSelectTests.commit(cli.directory.url, "base")
        let environment = XcodebuildCommandTests().environment(cli)
        let command = ["record", "--project", "Shop", "--select", "--", "xcodebuild", "test", "-scheme", "RandomStuff"]
        let stranger = try await cli.run(command, environment: environment)
        #expect(
            stranger.stderr.contains("every test runs: the runner lists tests of RandomStuffUITests, no test target"),
            "\(stranger.stderr)")

        try FileManager.default.createDirectory(
            at: cli.directory.url.appending(path: "App.xcodeproj"), withIntermediateDirectories: true)
        let project = try await cli.run(command, environment: environment)
        #expect(project.stderr.contains("every test runs: App.xcodeproj is here"), "\(project.stderr)")
        #expect(!XcodebuildCommandTests().log(cli, "xcodebuild.log").contains("-only-testing"))
    }
}
