import Foundation
import LedgerTestSupport
import Testing

/// Many processes opening a new ledger at once: one migrates it, every one stores its run.
@Suite(.enabled(if: InstalledTools.sqlite3, InstalledTools.sqlite3Skip)) struct ConcurrentCreationTests {
    static let processes = 16
    static let rounds = 5
    /// The SQLite migrations, as the build embeds them into the binary.
    static let migrationsFolder = CLI.packageRoot.appending(path: "Migrations/sqlite")
    /// How many migrations an older TestLedger applied: up to `005_runner_counts`.
    static let olderMigrations = 5

    @Test func sixteenIngestsIntoANewLedgerAllSucceed() async throws {
        let migrations = try Self.migrations()
        let cli = try CLI()
        defer { cli.directory.remove() }
        var files: [String] = []
        for index in 0..<Self.processes {
            files.append(
                try cli.directory.write(
                    "job\(index).xml",
                    #"<testsuite name="s"><testcase classname="App.Job\#(index)" name="works"/></testsuite>"#
                ).path)
        }
        var newSchema: [String] = []
        for round in 0..<Self.rounds {
            let database = cli.directory.path("round\(round)/.testledger/ledger.sqlite")
            // Odd rounds start from a ledger an older TestLedger wrote: migrated only to 005.
            let upgrades = round % 2 == 1
            if upgrades { try await Self.olderLedger(at: database, migrations: migrations) }
            let environment = ChildProcess.cleanEnvironment().merging(["TESTLEDGER_DB": database]) { _, new in new }
            let outputs = try await ChildProcess.runTogether(
                files.map { (CLI.binary, ["ingest", "--project", "Shop", $0]) }, environment: environment,
                in: cli.directory.url)
            for output in outputs {
                #expect(output.status == 0, "round \(round): \(output.stderr)")
            }
            let runs = try await ChildProcess.run(
                CLI.binary, ["runs", "--project", "Shop", "--format", "json", "--limit", "100"],
                environment: environment, in: cli.directory.url)
            let listed = try JSONSerialization.jsonObject(with: Data(runs.stdout.utf8)) as? [Any]
            #expect(listed?.count == Self.processes, "round \(round): every run stored once")

            let applied = try await Self.query(database, "SELECT identifier FROM grdb_migrations ORDER BY identifier")
            #expect(applied == migrations, "round \(round): every migration applied, once")
            let schema = try await Self.query(database, "SELECT type || ' ' || name FROM sqlite_schema ORDER BY name")
            if round == 0 { newSchema = schema }
            #expect(schema == newSchema, "round \(round): the same tables and indexes as a new ledger")
            if upgrades {
                let older = try await Self.query(
                    database,
                    """
                    SELECT run.uuid, run.reportedTests, test.key, result.outcome, result.muted, quarantine.mode
                    FROM run JOIN result ON result.runId = run.id JOIN test ON test.id = result.testId
                        JOIN quarantine ON quarantine.project = run.project AND quarantine.test = test.key
                    WHERE run.project = 'Legacy'
                    """)
                #expect(older == ["older-run|3|App.Old/works|failed|1|mute"], "round \(round): the older data survives")
            }
        }
    }

    /// The SQLite migrations' identifiers (file names without `.sql`), in order. Fails when the
    /// folder moved or holds too few to migrate an older ledger from.
    static func migrations() throws -> [String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: migrationsFolder.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        try #require(
            names.count > olderMigrations,
            "\(migrationsFolder.path) holds more than \(olderMigrations) migrations, not \(names)")
        return names.map { String($0.dropLast(4)) }
    }

    /// A ledger with the first five migrations applied, as `sqlite3` writes it from their SQL, and
    /// then a run, a result and a quarantined test stored in it. Fails unless it holds 001 to 005.
    static func olderLedger(at path: String, migrations: [String]) async throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let older = Array(migrations.prefix(olderMigrations))
        var script =
            "PRAGMA journal_mode = WAL;\nCREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);\n"
        for identifier in older {
            script +=
                try String(contentsOf: migrationsFolder.appending(path: "\(identifier).sql"), encoding: .utf8) + "\n"
            script += "INSERT INTO grdb_migrations VALUES ('\(identifier)');\n"
        }
        try await sqlite(path, script, "sqlite3 migrated the older ledger")
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        try #require(size > 0, "the older ledger \(path) is not empty")

        let applied = try await query(path, "SELECT identifier FROM grdb_migrations ORDER BY identifier")
        try #require(
            applied.count == olderMigrations && applied.last?.hasPrefix("005_") == true,
            "the older ledger holds exactly migrations 001 to 005: \(applied)")
        let tables = try await query(path, "SELECT name FROM sqlite_schema WHERE type = 'table'")
        let runColumns = try await query(path, "SELECT name FROM pragma_table_info('run')")
        try #require(
            tables.contains("quarantine") && runColumns.contains("reportedTests"),
            "the older ledger has 004's quarantine table and 005's run.reportedTests: \(tables), \(runColumns)")
        try #require(!tables.contains("ownership"), "the older ledger lacks 006's ownership table: \(tables)")

        try await sqlite(
            path,
            """
            INSERT INTO run (id, uuid, project, source, startedAt, endedAt, outcome, reportedTests)
                VALUES (1, 'older-run', 'Legacy', 'junit', 1700000000, 1700000060, 'failed', 3);
            INSERT INTO test (id, project, key, suite, name) VALUES (1, 'Legacy', 'App.Old/works', 'App.Old', 'works');
            INSERT INTO result (runId, testId, attempt, startedAt, duration, outcome, muted)
                VALUES (1, 1, 1, 1700000000, 0.5, 'failed', 1);
            INSERT INTO quarantine (project, test, configuration, mode, reason, actor, since)
                VALUES ('Legacy', 'App.Old/works', '*', 'mute', 'flaky', 'alice', 1700000000);
            """, "sqlite3 stored a run and a quarantined test in the older ledger")
    }

    /// Runs `script` with `sqlite3` on the ledger at `path`, stopping at its first error.
    static func sqlite(_ path: String, _ script: String, _ what: String) async throws {
        let output = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["sqlite3", "-bail", path], stdin: Data(script.utf8))
        try #require(output.status == 0, "\(what): \(output.stderr)")
    }

    /// The rows `sql` reads from the ledger at `path`, one line each, columns joined by `|`.
    static func query(_ path: String, _ sql: String) async throws -> [String] {
        let output = try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), ["sqlite3", "-bail", path, sql])
        try #require(output.status == 0, "sqlite3 \(path) \(sql): \(output.stderr)")
        return output.stdout.split(separator: "\n").map(String.init)
    }
}
