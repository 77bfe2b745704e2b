import Testing

@testable import LedgerPostgres

@Suite struct PostgresLocationTests {
    @Test func aFullURLIsRead() throws {
        let location = try PostgresLocation(
            url: "postgresql://ci%40acme:s3cr%2Ft@db.internal:6543/ledger?sslmode=require&search_path=tests")
        #expect(location.user == "ci@acme")
        #expect(location.password == "s3cr/t")
        #expect(location.host == "db.internal")
        #expect(location.port == 6543)
        #expect(location.database == "ledger")
        #expect(location.tls == .require)
        #expect(location.schema == "tests")
        #expect(location.redacted == "postgres://ci@acme@db.internal:6543/ledger?search_path=tests")
        #expect(!location.redacted.contains("s3cr"))
    }

    @Test func defaultsArePort5432PreferredTLSAndTheServersSchema() throws {
        let location = try PostgresLocation(url: "postgres://ledger@localhost/ledger")
        #expect(location.port == 5432)
        #expect(location.tls == .prefer)
        #expect(location.schema == nil)
        #expect(location.password == nil)
    }

    @Test func onlyPostgresURLsAreURLs() {
        #expect(PostgresLocation.isURL("postgres://a@b/c"))
        #expect(PostgresLocation.isURL("POSTGRESQL://a@b/c"))
        #expect(!PostgresLocation.isURL(".testledger/ledger.sqlite"))
        #expect(!PostgresLocation.isURL("/tmp/postgres://x"))
        #expect(!PostgresLocation.isURL("mysql://a@b/c"))
    }

    @Test(arguments: [
        ("postgres://db.internal/ledger", "names no user"),
        ("postgres://ci@/ledger", "names no host"),
        ("postgres://ci@db.internal", "names no database"),
        ("postgres://ci@db.internal/a/b", "names no database"),
        (
            "postgres://ci@db.internal/ledger?sslmode=always",
            "sslmode=always is not one of disable, prefer, require, verify-full"
        ),
        ("postgres://ci@db.internal/ledger?search_path=", "search_path needs a schema name"),
        ("postgres://ci@db.internal/ledger?application_name=x", "unknown parameter application_name"),
    ])
    func badURLsSayWhatIsWrong(url: String, message: String) {
        #expect {
            try PostgresLocation(url: url)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test(arguments: [
        "postgres://ci:hunter2@db.internal", "postgres://ci:hun/ter#2@db.internal:5432/ledger",
        "postgres://ci:hunter2@db.internal:port/ledger", "postgres://ci:hunter 2@/ledger",
    ])
    func aPasswordNeverShowsInAnError(url: String) {
        #expect {
            try PostgresLocation(url: url)
        } throws: { error in
            !"\(error)".contains("hunter") && !"\(error)".contains("hun/ter")
        }
    }

    @Test func aPercentEncodedPasswordIsDecodedOnce() throws {
        #expect(try PostgresLocation(url: "postgres://ci:p%2541ss@db.internal/ledger").password == "p%41ss")
    }

    @Test(arguments: ["p@ss/w:rd", "a#b?c%41 d", "@/"])
    func aPasswordGivenApartIsTakenAsItIs(password: String) throws {
        let location = try PostgresLocation(
            url: "postgres://testledger@postgres:5432/testledger?sslmode=disable", password: password)
        #expect(location.password == password)
        #expect(location.user == "testledger")
        #expect(location.host == "postgres")
        #expect(location.database == "testledger")
        #expect(!location.redacted.contains(password))
    }

    @Test func theURLsOwnPasswordWinsOverOneGivenApart() throws {
        let location = try PostgresLocation(url: "postgres://ci:in%40url@db.internal/ledger", password: "apart")
        #expect(location.password == "in@url")
    }
}
