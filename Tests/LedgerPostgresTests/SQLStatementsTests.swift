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
