import Foundation
import LedgerTestSupport
import Testing

/// Many processes opening a new ledger at once: one migrates it, every one stores its run.
@Suite struct ConcurrentCreationTests {
    static let processes = 16
    static let rounds = 5

    @Test func sixteenIngestsIntoANewLedgerAllSucceed() async throws {
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
        for round in 0..<Self.rounds {
            let database = cli.directory.path("round\(round)/.testledger/ledger.sqlite")
            // Odd rounds start from a ledger an older TestLedger wrote: migrated only to 005.
            if round % 2 == 1 { try Self.olderLedger(at: database) }
            let environment = ChildProcess.cleanEnvironment().merging(["TESTLEDGER_DB": database]) { _, new in new }
            let outputs = try await withThrowingTaskGroup(of: ChildProcess.Output.self) { group in
                for file in files {
                    group.addTask {
                        try await ChildProcess.run(
                            CLI.binary, ["ingest", "--project", "Shop", file], environment: environment,
                            in: cli.directory.url)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for output in outputs {
                #expect(output.status == 0, "round \(round): \(output.stderr)")
            }
            let runs = try await ChildProcess.run(
                CLI.binary, ["runs", "--format", "json", "--limit", "100"], environment: environment,
                in: cli.directory.url)
            let listed = try JSONSerialization.jsonObject(with: Data(runs.stdout.utf8)) as? [Any]
            #expect(listed?.count == Self.processes, "round \(round): every run stored once")
        }
    }

    /// A ledger with the first five migrations applied, as `sqlite3` writes it from their SQL.
    static func olderLedger(at path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let folder = CLI.packageRoot.appending(path: "Migrations")
        let older = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sql") }
            .sorted().prefix(5)
        var script =
            "PRAGMA journal_mode = WAL;\nCREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);\n"
        for name in older {
            script += try String(contentsOf: folder.appending(path: name), encoding: .utf8) + "\n"
            script += "INSERT INTO grdb_migrations VALUES ('\(name.dropLast(4))');\n"
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", path]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(script.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "sqlite3 wrote the older ledger")
    }
}
