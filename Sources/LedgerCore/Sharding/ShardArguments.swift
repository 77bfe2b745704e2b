/// The arguments that run one shard's tests, for runners `testledger record` does not wrap:
/// a whole suite by its name when the shard has all of it, so that the line stays short.
public enum ShardArguments {
    /// - Parameters:
    ///   - runner: `swift test` (`--filter`) or `xcodebuild` (`-only-testing:`).
    ///   - tests: the shard's tests, stable ids (`Module.Class/test`).
    ///   - everyTest: every test of the plan, to tell a whole suite from part of one.
    public static func arguments(
        for runner: SkipArguments.Runner, selecting tests: [String], of everyTest: [String]
    ) -> [String] {
        let chosen = Set(tests)
        let suites = Dictionary(grouping: everyTest, by: suite(of:))
        var whole: [String] = []
        var single: [String] = []
        for (name, members) in suites.sorted(by: { $0.key < $1.key }) where members.contains(where: chosen.contains) {
            if members.allSatisfy(chosen.contains) {
                whole.append(name)
            } else {
                single += members.filter(chosen.contains).sorted()
            }
        }
        single += chosen.subtracting(everyTest).sorted()
        switch runner {
        case .swiftTest:
            return whole.flatMap { ["--filter", SkipArguments.swiftTestSuitePattern($0)] }
                + SkipArguments.swiftTestArguments(selecting: single)
        case .xcodebuild:
            return (whole + single).map { "-only-testing:" + SkipArguments.xcodebuildName($0) }
        }
    }

    /// A test id's suite: its part before the last `/`.
    static func suite(of test: String) -> String {
        test.lastIndex(of: "/").map { String(test[..<$0]) } ?? test
    }
}
