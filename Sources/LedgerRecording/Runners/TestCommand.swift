import Foundation
import LedgerCore

/// The test command `record` runs, seen as its runner: how to add what selects and skips tests,
/// and how to ask for every test it would run.
package enum TestCommand {
    case swiftTest(SwiftTestInvocation)
    case xcodebuild(XcodebuildInvocation)
    /// Any other command: its runner's module reads what `record` tells it in the environment.
    case module([String])

    /// `command` as its runner: `swift test` and `xcodebuild test` write their outputs into
    /// `outputFolder`.
    package init(_ command: [String], outputFolder: URL) {
        if let swiftTest = SwiftTestInvocation(command, outputFolder: outputFolder) {
            self = .swiftTest(swiftTest)
        } else if let xcodebuild = XcodebuildInvocation(command, outputFolder: outputFolder) {
            self = .xcodebuild(xcodebuild)
        } else {
            self = .module(command)
        }
    }

    package var runner: TestRunner {
        switch self {
        case .swiftTest: .swiftTest
        case .xcodebuild: .xcodebuild
        case .module: .module
        }
    }

    /// The run's `source`, as stored with its start.
    package var source: String {
        switch self {
        case .swiftTest: "swift-test"
        case .xcodebuild: "xcodebuild"
        case .module: "record"
        }
    }

    package var swiftTest: SwiftTestInvocation? {
        if case .swiftTest(let invocation) = self { invocation } else { nil }
    }

    package var xcodebuild: XcodebuildInvocation? {
        if case .xcodebuild(let invocation) = self { invocation } else { nil }
    }

    /// Whether the command's own arguments already choose its tests (`--filter`, `-only-testing:`),
    /// which a shard's selection would fight.
    package var selectsTests: Bool {
        switch self {
        case .swiftTest(let invocation):
            invocation.original.contains { $0 == "--filter" || $0.hasPrefix("--filter=") }
        case .xcodebuild(let invocation): invocation.selectsTests
        case .module: false
        }
    }

    /// Whether `swift test` runs every test: neither `--filter` nor `--skip` of its own. A run of
    /// some tests cannot vouch for a target (``FullRunHashes``).
    package var runsEveryTest: Bool {
        guard let invocation = swiftTest else { return false }
        return !selectsTests && !invocation.original.contains { $0 == "--skip" || $0.hasPrefix("--skip=") }
    }

    /// Every test the runner would run, as it lists them; `nil` for a module, which lists nothing
    /// before it runs, and for a `swift test` whose list could not be read.
    /// - Parameter folder: where `xcodebuild -enumerate-tests` writes its list.
    /// - Returns: the tests the runner lists; `nil` for a module and for a `swift test` whose list
    ///   could not be read.
    /// - Throws: what running `xcodebuild -enumerate-tests` throws.
    package func allTests(writingInto folder: URL) throws -> [String]? {
        switch self {
        case .swiftTest(let invocation): invocation.allTests()
        case .xcodebuild(let invocation): try invocation.allTests(writingInto: folder)
        case .module: nil
        }
    }

    /// The command to run, with the arguments that skip `skipped` and select `selecting` (a
    /// shard's `--filter`s or `-only-testing:`s); a module's command as it is.
    package func arguments(skipping skipped: [String], selecting: [String] = []) -> [String] {
        switch self {
        case .swiftTest(let invocation):
            invocation.arguments(adding: SkipArguments.arguments(for: .swiftTest, skipping: skipped) + selecting)
        case .xcodebuild(let invocation): invocation.arguments(skipping: skipped, selecting: selecting)
        case .module(let command): command
        }
    }
}
