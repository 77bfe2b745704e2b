import Foundation
import Testing

@testable import LedgerPostgres

@Suite struct SQLStatementsTests {
    @Test func statementsSplitAtSemicolonsOutsideQuotesAndComments() {
        let sql = """
            -- a comment; with a semicolon
            CREATE TABLE a (x TEXT DEFAULT 'a;b'); /* block; comment */
            CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION 'no; never';
            END;
            $$;
            CREATE TABLE "odd;name" (y INT);
            SELECT $tag$ a; b $tag$;
            """
        let statements = SQLStatements.split(sql)
        #expect(statements.count == 4)
        #expect(statements[0] == "CREATE TABLE a (x TEXT DEFAULT 'a;b')")
        #expect(statements[1].hasPrefix("CREATE FUNCTION f()") && statements[1].hasSuffix("END;\n$$"))
        #expect(statements[2] == "CREATE TABLE \"odd;name\" (y INT)")
        #expect(statements[3] == "SELECT $tag$ a; b $tag$")
    }

    @Test func everyEmbeddedMigrationSplitsIntoStatements() {
        for migration in EmbeddedMigrations.all {
            let statements = SQLStatements.split(migration.sql)
            #expect(!statements.isEmpty, "\(migration.identifier)")
            #expect(statements.allSatisfy { !$0.hasPrefix("--") && !$0.isEmpty })
        }
    }
}

@Suite struct MigrationDialectTests {
    /// The migration files of one dialect, by identifier.
    static func identifiers(_ dialect: String) -> [String] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Migrations/\(dialect)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".sql") }.map { String($0.dropLast(4)) }.sorted()
    }

    @Test func bothDialectsHaveTheSameMigrationsAndPostgreSQLsAreEmbedded() {
        let sqlite = Self.identifiers("sqlite")
        #expect(sqlite.count >= 8)
        #expect(Self.identifiers("postgresql") == sqlite)
        #expect(EmbeddedMigrations.all.map(\.identifier) == sqlite)
    }
}
