#if Tools
    import Foundation
    import LedgerCore
    import LedgerImport
    import LedgerPostgres
    import LedgerServer
    import LedgerStore

    /// `--server --database postgres://…`: the server on SQLite and on PostgreSQL side by side at 1,
    /// 8 and 32 clients, and PostgreSQL's own bulk rate next to `psql \copy` of the same rows into
    /// the same indexed table, all in one run.
    enum StoreComparison {
        static func measure(tests: Int, uploads: Int, clients: [Int], database: String) async throws {
            let folder = FileManager.default.temporaryDirectory.appending(path: "ledger-benchmark-stores-\(getpid())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let bodies = try ServerLoad.runs(of: SyntheticHistory(tests: tests, runs: uploads), in: folder)
            let files = try bodies.enumerated().map { index, body in
                let file = folder.appending(path: "body\(index).ndjson")
                try body.write(to: file)
                return file
            }
            let warmUp = folder.appending(path: "warm-up.ndjson")
            // The history's runs after the measured ones, so that none is the warm-up's.
            try ServerLoad.runs(of: SyntheticHistory(tests: tests, runs: uploads + 1), in: folder)[uploads].write(
                to: warmUp)
            let results = tests * uploads
            print(
                "Stores: \(uploads) uploads of one \(tests)-test run each (\(results) results) on SQLite and on "
                    + Schemas.redacted(database))
            let schemas = Schemas(base: database)
            defer { schemas.dropAll() }

            // The store's bulk rate, one writer, no HTTP, against psql's \copy of the same rows.
            let bulkURL = schemas.fresh()
            let bulk = try await onThread { try PostgresLedger(location: PostgresLocation(url: bulkURL)) }
            try await onThread { try ingest([warmUp], into: bulk) }
            let bulkSeconds = try await onThread { try Timing.seconds { try ingest(files, into: bulk) } }
            let copySeconds = try PsqlCopy.seconds(from: bulkURL, into: schemas.fresh(), folder: folder)
            Report.rate("PostgreSQL store, direct ingest", results, bulkSeconds)
            Report.rate("psql \\copy of the same result rows", results, copySeconds)
            Report.ratio("store ÷ \\copy rate", copySeconds / bulkSeconds, atLeast: 0.5)
            // Retention: what pruning the same rows costs, in batches of 5,000 results per transaction.
            let pruneSeconds = try await onThread {
                try Timing.seconds { _ = try bulk.prune(before: 1_800_000_000, project: nil, progress: { _, _ in }) }
            }
            Report.rate("PostgreSQL prune, batched DELETE", results + tests, pruneSeconds)

            for count in clients {
                for kind in ["SQLite", "PostgreSQL"] {
                    let store: any ResultStore & CredentialStore
                    if kind == "SQLite" {
                        store = try LedgerDatabase(path: folder.appending(path: "served-\(count).sqlite").path)
                    } else {
                        let url = schemas.fresh()
                        store = try await onThread { try PostgresLedger(location: PostgresLocation(url: url)) }
                    }
                    let token = try await onThread { try Tokens.create(project: "Bench", scope: .write, in: store) }
                    // The project's tests exist, as they do on a server in use: a project's very first
                    // uploads, all at once, are measured apart.
                    try await onThread { try ingest([warmUp], into: store) }
                    let (busyBefore, ownBefore) = (CPUTime.ofThisMachine, CPUTime.ofThisProcess)
                    let (latencies, seconds) = try await LedgerServer.running(
                        store, configuration: ServerConfiguration(port: 0)
                    ) { port in
                        try await ServerLoad.send(
                            bodies, to: "http://127.0.0.1:\(port)/api/v1/events", token: token, clients: count)
                    }
                    let busy = CPUTime.ofThisMachine.flatMap { after in busyBefore.map { after - $0 } }
                    let own = CPUTime.ofThisProcess - ownBefore
                    let stored = try await onThread {
                        try store.runs(project: nil, limit: uploads + 2).reduce(0) { $0 + $1.tests } - tests
                    }
                    guard stored == results else {
                        throw ServerLoad.Failure("\(kind) stored \(stored) of \(results) results")
                    }
                    let sorted = latencies.sorted()
                    // The machine's busy CPU per result (clients, server and database together), and
                    // this process's share: the clients and the server, with SQLite inside it.
                    let cost =
                        busy.map {
                            String(
                                format: "  CPU/result %.1f µs, this process %.1f", $0 / Double(results) * 1e6,
                                own / Double(results) * 1e6)
                        } ?? ""
                    print(
                        "  " + "\(kind), \(count) client(s)".padding(toLength: 26, withPad: " ", startingAt: 0)
                            + String(
                                format: " %9.0f results/s  p50 %5.0f ms  p99 %5.0f ms  (%d of %d results stored)",
                                Double(results) / seconds, sorted.percentile(0.5) * 1000,
                                sorted.percentile(0.99) * 1000,
                                stored,
                                results) + cost)
                }
            }
        }

        static func ingest(_ files: [URL], into store: any ResultStore) throws {
            for file in files {
                let context = ImportContext(
                    runID: UUID().uuidString, sourceName: file.path, metadata: RunMetadata(project: "Bench"),
                    fallbackStart: 0)
                try store.ingest { sink in
                    try LedgerStreamImporter().importResults(from: .file(file), context: context, into: &sink)
                }
            }
        }

        /// Runs blocking store work on a thread of its own, off the cooperative pool.
        static func onThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
            try await withCheckedThrowingContinuation { continuation in
                Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
            }
        }
    }

    /// Fresh schemas on the benchmark's server, dropped when it ends.
    final class Schemas: @unchecked Sendable {
        let base: String
        private var made: [String] = []

        init(base: String) { self.base = base }

        func fresh() -> String {
            let name = "bench_\(getpid())_\(made.count)"
            made.append(name)
            return base + (base.contains("?") ? "&" : "?") + "search_path=\(name)"
        }

        func dropAll() {
            for name in made { _ = try? Psql.run(base, ["--command", "DROP SCHEMA IF EXISTS \(name) CASCADE"]) }
        }

        static func redacted(_ url: String) -> String {
            (try? PostgresLocation(url: url).redacted) ?? "PostgreSQL"
        }
    }

    /// The baseline: the rows the store wrote, copied by `psql \copy` into the same tables of a fresh
    /// schema migrated by the store (its runs and tests copied first, untimed).
    enum PsqlCopy {
        static func seconds(from source: String, into target: String, folder: URL) throws -> Double {
            _ = try PostgresLedger(location: PostgresLocation(url: target))
            let columns = "runId, testId, attempt, startedAt, duration, outcome, message, muted"
            for (table, select) in [
                ("run", "run"), ("test", "test"),
                ("result", "(SELECT \(columns) FROM result ORDER BY id)"),
            ] {
                let file = folder.appending(path: "\(table).csv").path
                try Psql.run(source, ["--command", "\\copy \(select) TO '\(file)' CSV"])
                guard table == "result" else {
                    try Psql.run(target, ["--command", "\\copy \(table) FROM '\(file)' CSV"])
                    continue
                }
                return try Timing.seconds {
                    try Psql.run(target, ["--command", "\\copy result (\(columns)) FROM '\(file)' CSV"])
                }
            }
            return 0
        }
    }

    /// `psql` on a URL whose `search_path` it sets through libpq's `options`.
    enum Psql {
        @discardableResult
        static func run(_ url: String, _ arguments: [String]) throws -> String {
            let location = try PostgresLocation(url: url)
            var connection = "postgresql://\(location.user)@\(location.host):\(location.port)/\(location.database)"
            if let schema = location.schema { connection += "?options=-csearch_path%3D\(schema)" }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["psql", "--quiet", "--no-psqlrc", "--set", "ON_ERROR_STOP=1", connection] + arguments
            var environment = ProcessInfo.processInfo.environment
            environment["PGOPTIONS"] = "-c client_min_messages=warning"
            environment["PGPASSWORD"] = location.password ?? environment["PGPASSWORD"]
            process.environment = environment
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw ServerLoad.Failure("psql \(arguments.joined(separator: " ")) failed")
            }
            return String(decoding: data, as: UTF8.self)
        }
    }
#endif
