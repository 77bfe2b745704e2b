import Foundation
import LedgerTestSupport
import Testing

/// What the skip check (`Scripts/check-skips.py`) reads: a skip it must always find, so that a
/// change in how `swift test` prints skips cannot hide them all; and one skip standing for the
/// PostgreSQL case of every store test taking `StoreKind.available`, which a parameterized test
/// drops without a word when no server is given.
@Suite struct SkipVisibilityTests {
    @Test(.enabled(if: false, "the canary: always skipped, so that the skip check proves it reads skips"))
    func canary() {}

    @Test(
        .enabled(
            if: TestPostgres.available,
            """
            needs PostgreSQL: set TESTLEDGER_TEST_DATABASE_URL (.ci/run starts one with Scripts/postgres-cluster.sh); \
            the store tests ran on SQLite alone
            """))
    func storeTestsRunTheirPostgreSQLCase() {
        #expect(StoreKind.available == [.sqlite, .postgresql])
    }

    /// A line of `Tests/tools.txt` the tests cannot read would leave its tool ungated.
    @Test func everyLineOfTheToolListIsRead() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "tools.txt")
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.count >= 15 && OutsideTools.listed.count == lines.count)
        #expect(OutsideTools.listed["chromium"]?.installLine == "apt-get install -y chromium")
        #expect(OutsideTools.skip("no-such-tool") == "needs no-such-tool (not in Tests/tools.txt)")
    }
}
