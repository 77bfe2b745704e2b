/// The runners `testledger` knows, and what each can do for it.
public enum TestRunner: String, Sendable, CaseIterable {
    /// `swift test`, for XCTest and Swift Testing alike: it lists its tests (`swift test list`) and
    /// selects them by argument (`--filter`, `--skip`); `record` runs a failed or new test again in
    /// a process of its own.
    case swiftTest = "swift-test"
    /// `xcodebuild test`: it lists its tests (`-enumerate-tests`) and selects them by argument
    /// (`-only-testing:`, `-skip-testing:`); `record` runs a failed test again with
    /// `test-without-building -only-testing:`, not Xcode's `-retry-tests-on-failure`, which would run
    /// every Swift Testing test of the bundle again.
    case xcodebuild
    /// Any other command, whose runner has a TestLedger module (Bacon's): the module reads
    /// ``LedgerEnvironment``'s variables and retries, repeats, shards and skips in its own process.
    case module = "bacon"

    /// Whether the runner lists every test before running any, so that a shard can be planned
    /// from its list and an empty shard has nothing to run.
    public var listsItsTests: Bool { self != .module }

    /// Whether the runner's arguments choose the tests that run (`--filter`, `-only-testing:`);
    /// a module is told them in its environment instead.
    public var selectsTestsByArgument: Bool { self != .module }

    /// Whether `record --repeat-new` can run the new tests again: `swift test` by `record`, a
    /// module in its process; `xcodebuild` repeats a test plan, not single tests.
    public var repeatsNewTests: Bool { self != .xcodebuild }
}
