import LedgerCore
import Testing

@Suite struct SwiftTestListTests {
    @Test func listedNamesBecomeTheLedgersIDsAndBuildLinesAreNone() {
        let lines = [
            "ShardedTests.ShardedXCTests/testCase01", "ShardedTests.ShardedSwiftTests/case01()", "ShardedTests.free()",
            "ShardedTests.Suite/over()/Over.swift:3:2", "[12/40] Compiling ShardedTests Sharded.swift",
            "Building for debugging...", "",
        ]
        #expect(
            lines.map { SwiftTestList.stableID(listed: Substring($0)) } == [
                "ShardedTests.ShardedXCTests/testCase01", "ShardedTests.ShardedSwiftTests/case01()",
                "ShardedTests/free()", "ShardedTests.Suite/over()", nil, nil, nil,
            ])
    }
}
