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
}
