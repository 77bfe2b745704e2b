import Foundation
import LedgerTestSupport
import Testing

/// `record --shard I/N -- xcodebuild test` with the stand-in xcodebuild, which lists the fixture
/// bundle's five tests through `-enumerate-tests` and logs the arguments each run gets.
@Suite struct XcodebuildShardTests {
    static let tests = [
        "RandomStuffTests/RandomStuffTests/testExample()", "RandomStuffTests/RandomStuffTests/testPerformanceExample()",
        "RandomStuffUITests/RandomStuffUITests/testExample()",
        "RandomStuffUITests/RandomStuffUITests/testLaunchPerformance()",
        "RandomStuffUITests/RandomStuffUITestsLaunchTests/testLaunch()",
    ]

    /// Each shard's `-only-testing:` selectors, from the runs the stand-in logged.
    func shards(_ cli: CLI, count: Int, extraTest: String? = nil) async throws -> [(CLI.Output, [String])] {
        var shards: [(CLI.Output, [String])] = []
        for index in 1...count {
            let log = "xcodebuild-\(extraTest == nil ? "planned" : "added")-\(index).log"
            var environment = XcodebuildCommandTests().environment(cli, ["XCODEBUILD_LOG": cli.directory.path(log)])
            environment["XCODEBUILD_EXTRA_TEST"] = extraTest
            let output = try await cli.run(
                [
                    "record", "--project", "Shop", "--revision", "c0ffee", "--shard", "\(index)/\(count)", "--",
                    "xcodebuild", "test", "-scheme", "RandomStuff",
                ], environment: environment)
            let runs = XcodebuildCommandTests().log(cli, log).split(separator: "\n").filter { $0.hasPrefix("args: ") }
            #expect(runs.count == 2, "a listing, then the shard's run: \(runs)")
            #expect(runs.first?.contains("-enumerate-tests -test-enumeration-style flat") == true)
            let selectors = (runs.last ?? "").split(separator: " ").filter { $0.hasPrefix("-only-testing:") }
            shards.append((output, selectors.map { String($0.dropFirst("-only-testing:".count)) }))
        }
        return shards
    }

    /// The listed tests a selector runs: itself, or every test of the suite it names.
    func selected(by selectors: [String], among tests: [String]) -> [String] {
        tests.filter { test in selectors.contains { test == $0 || test.hasPrefix($0 + "/") } }
    }

    @Test func everyListedTestRunsInExactlyOneShardANewOneToo() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let history = CLI.packageRoot.appending(path: "Tests/Fixtures/XCResultBundle/tests.json").path
        #expect(try await cli.run(["ingest", "--project", "Shop", "--revision", "0ld", history]).status == 0)

        let planned = try await shards(cli, count: 3)
        for (output, _) in planned {
            #expect(output.status == 0, "\(output.stdout.suffix(1_000))\(output.stderr.suffix(1_000))")
            #expect(output.stderr.contains("testledger: shard "), "\(output.stderr)")
        }
        let covered = planned.flatMap { selected(by: $0.1, among: Self.tests) }
        #expect(covered.sorted() == Self.tests.sorted(), "each of the five once: \(planned.map(\.1))")
        #expect(planned.allSatisfy { !$0.1.isEmpty })

        let added = "RandomStuffTests/RandomStuffTests/testAdded()"
        let later = try await shards(cli, count: 3, extraTest: added)
        let every = Self.tests + [added]
        #expect(later.flatMap { selected(by: $0.1, among: every) }.sorted() == every.sorted())
        // The stand-in's bundle holds the five only: the shard given the new test says it did not run.
        let given = later.filter { selected(by: $0.1, among: [added]) == [added] }
        #expect(given.count == 1)
        #expect(given.first?.0.status == 1)
        #expect(
            given.first?.0.stderr.contains("of its tests did not run: RandomStuffTests.RandomStuffTests/testAdded()")
                == true, "\(given.first?.0.stderr ?? "")")
    }

    @Test func theCommandsOwnSelectionIsRefused() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let refused = try await cli.run(
            [
                "record", "--shard", "1/2", "--", "xcodebuild", "test", "-scheme", "RandomStuff",
                "-only-testing:RandomStuffTests",
            ], environment: XcodebuildCommandTests().environment(cli))
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("leave out xcodebuild's -only-testing"), "\(refused.stderr)")
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(runs.isEmpty, "a plan that cannot be made leaves no empty run: \(runs)")
    }
}
