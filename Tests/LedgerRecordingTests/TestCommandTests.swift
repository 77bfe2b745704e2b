import Foundation
import LedgerCore
import LedgerRecording
import Testing

@Suite struct TestCommandTests {
    private let folder = URL(fileURLWithPath: "/tmp/record-outputs")

    @Test func eachCommandIsItsRunner() {
        #expect(TestCommand(["swift", "test", "--parallel"], outputFolder: folder).runner == .swiftTest)
        #expect(TestCommand(["/usr/bin/swift", "test"], outputFolder: folder).runner == .swiftTest)
        #expect(
            TestCommand(["xcodebuild", "-scheme", "App", "test"], outputFolder: folder).runner
                == .xcodebuild)
        #expect(
            TestCommand(["xcodebuild", "test-without-building"], outputFolder: folder).runner == .xcodebuild
        )
        // Building is not testing: the command is run as it is, as any other.
        #expect(TestCommand(["swift", "build"], outputFolder: folder).runner == .module)
        #expect(TestCommand(["xcodebuild", "build"], outputFolder: folder).runner == .module)
        #expect(TestCommand(["bacon", "spec/cart_spec.rb"], outputFolder: folder).runner == .module)
    }

    @Test func theRunsSourceNamesTheRunner() {
        #expect(TestCommand(["swift", "test"], outputFolder: folder).source == "swift-test")
        #expect(TestCommand(["xcodebuild", "test"], outputFolder: folder).source == "xcodebuild")
        #expect(TestCommand(["rake", "spec"], outputFolder: folder).source == "record")
    }

    @Test func whatEachRunnerCanDo() {
        #expect(TestRunner.swiftTest.listsItsTests && TestRunner.xcodebuild.listsItsTests)
        #expect(!TestRunner.module.listsItsTests && !TestRunner.module.selectsTestsByArgument)
        #expect(!TestRunner.xcodebuild.repeatsNewTests && TestRunner.swiftTest.repeatsNewTests)
        // The command-line spellings scripts use: `quarantine args --for bacon`.
        #expect(TestRunner.allCases.map(\.rawValue) == ["swift-test", "xcodebuild", "bacon"])
    }

    @Test func aCommandThatChoosesItsTestsIsSeen() {
        #expect(TestCommand(["swift", "test", "--filter", "Cart"], outputFolder: folder).selectsTests)
        #expect(TestCommand(["swift", "test", "--filter=Cart"], outputFolder: folder).selectsTests)
        #expect(!TestCommand(["swift", "test", "--skip", "Cart"], outputFolder: folder).selectsTests)
        #expect(
            TestCommand(["xcodebuild", "test", "-only-testing:AppTests/Cart"], outputFolder: folder)
                .selectsTests)
        #expect(!TestCommand(["bacon", "--filter", "x"], outputFolder: folder).selectsTests)
        // Only `swift test` with neither --filter nor --skip runs every test, as a vouching run must.
        #expect(TestCommand(["swift", "test", "--parallel", "--skip-build"], outputFolder: folder).runsEveryTest)
        for partial in [["--filter", "Cart"], ["--skip", "Cart"], ["--skip=Cart"]] {
            #expect(!TestCommand(["swift", "test"] + partial, outputFolder: folder).runsEveryTest, "\(partial)")
        }
        #expect(!TestCommand(["xcodebuild", "test", "-scheme", "App"], outputFolder: folder).runsEveryTest)
        #expect(!TestCommand(["bacon", "spec"], outputFolder: folder).runsEveryTest)
    }

    @Test func skippedAndSelectedTestsReachEachRunnerItsOwnWay() throws {
        let swift = TestCommand(["swift", "test"], outputFolder: folder)
            .arguments(skipping: ["App.Cart/testTotal"], selecting: ["--filter", "X"])
        #expect(swift.starts(with: ["swift", "test"]))
        let skip = try #require(swift.firstIndex(of: "--skip"))
        #expect("App.Cart/testTotal".contains(try Regex(swift[skip + 1])))
        #expect(skip < (swift.firstIndex(of: "--filter") ?? 0))
        #expect(swift.contains("--event-stream-output-path") && swift.contains("--xunit-output"))

        let xcode = TestCommand(["xcodebuild", "test"], outputFolder: folder)
            .arguments(skipping: ["AppTests.Cart/testTotal"], selecting: ["-only-testing:AppTests/Cart/testOther"])
        #expect(xcode.contains("-skip-testing:AppTests/Cart/testTotal"))
        #expect(xcode.contains("-only-testing:AppTests/Cart/testOther"))
        #expect(!xcode.contains("-retry-tests-on-failure") && xcode.contains("-resultBundlePath"))

        let bacon = ["bacon", "spec/cart_spec.rb"]
        #expect(
            TestCommand(bacon, outputFolder: folder).arguments(skipping: ["Cart/adds"], selecting: ["x"])
                == bacon)
    }

    @Test func aModuleListsNothingBeforeItRuns() throws {
        #expect(try TestCommand(["bacon"], outputFolder: folder).allTests(writingInto: folder) == nil)
    }
}
