/// The arguments that run one shard's tests, for runners `testledger record` does not wrap:
/// a whole suite by its name when the shard has all of it, so that the line stays short.
public enum ShardArguments {
    /// - Parameters:
    ///   - runner: `swift test` (`--filter`) or `xcodebuild` (`-only-testing:`); a module is given
    ///     its shard in its environment, and no arguments.
    ///   - tests: the shard's tests, stable ids (`Module.Class/test`).
    ///   - everyTest: every test of the plan, to tell a whole suite from part of one.
    ///   - skipped: tests left out of the plan (quarantined as skipped), which a suite's name
    ///     would run again.
    /// - Returns: the runner's arguments: whole suites by name first, then single tests.
    public static func arguments(
        for runner: TestRunner, selecting tests: [String], of everyTest: [String],
        skipped: Set<String> = []
    ) -> [String] {
        let chosen = Set(tests)
        let suites = Dictionary(grouping: everyTest, by: ShardPlanner.suite(of:))
        let everything = Set(everyTest).union(skipped)
        var whole: [String] = []
        var single: [String] = []
        for (name, members) in suites.sorted(by: { $0.key < $1.key }) where members.contains(where: chosen.contains) {
            if members.allSatisfy(chosen.contains), namesOnly(members, suite: name, among: everything) {
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
        case .module:
            return []
        }
    }

    /// Whether `suite`'s name selects its `members` and nothing else: not a bare module (every
    /// test in it would match), and no other test, a nested suite's or a skipped one, under it.
    static func namesOnly(_ members: [String], suite: String, among everything: Set<String>) -> Bool {
        guard suite.contains(".") else { return false }
        let own = Set(members)
        return !everything.contains { !own.contains($0) && ($0.hasPrefix(suite + "/") || $0.hasPrefix(suite + ".")) }
    }
}
