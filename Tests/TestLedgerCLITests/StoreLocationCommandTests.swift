import Foundation
import LedgerTestSupport
import Testing

/// `--db` takes a file or a PostgreSQL URL; what each command does with a URL it cannot use.
@Suite struct StoreLocationCommandTests {
    @Test func anUnreachableDatabaseIsNamedWithoutItsPassword() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let runs = try await cli.run(["runs", "--db", "postgres://ci:s3cret@127.0.0.1:9/ledger"])
        #expect(runs.status != 0)
        #expect(runs.stderr.contains("postgres://ci@127.0.0.1:9/ledger: cannot connect"), "\(runs.stderr)")
        #expect(!runs.stderr.contains("s3cret"))
        let bad = try await cli.run(["runs"], environment: ["TESTLEDGER_DATABASE_URL": "postgres://ci:s3cret@host"])
        #expect(bad.status != 0 && bad.stderr.contains("names no database") && !bad.stderr.contains("s3cret"))
    }

    @Test func recordKeepsItsRunInAFileAndSaysSoForAURL() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let record = try await cli.run(["record", "--db", "postgres://ci@127.0.0.1:9/ledger", "--", "true"])
        #expect(record.status != 0)
        #expect(record.stderr.contains("record keeps its run in a ledger file"), "\(record.stderr)")
        #expect(record.stderr.contains("testledger upload"))
    }
}
