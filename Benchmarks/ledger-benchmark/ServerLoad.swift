#if Tools
    import AsyncHTTPClient
    import Foundation
    import LedgerCore
    import LedgerImport
    import LedgerServer
    import LedgerStore
    import NIOCore

    /// Sustained ingestion through `testledger serve` on loopback, with `clients` concurrent HTTP
    /// clients each sending whole runs, next to ingesting the same runs directly, in the same run.
    enum ServerLoad {
        static func run(tests: Int, uploads: Int, clients: Int) throws {
            try wait { try await measure(tests: tests, uploads: uploads, clients: clients) }
        }

        /// Runs `body` as a task and waits for it on this thread.
        static func wait(_ body: @escaping @Sendable () async throws -> Void) throws {
            let semaphore = DispatchSemaphore(value: 0)
            let outcome = UnsafeBox<Result<Void, any Error>>(.success(()))
            Task {
                do {
                    try await body()
                } catch {
                    outcome.value = .failure(error)
                }
                semaphore.signal()
            }
            semaphore.wait()
            try outcome.value.get()
        }

        static func measure(tests: Int, uploads: Int, clients: Int) async throws {
            let folder = FileManager.default.temporaryDirectory.appending(path: "ledger-benchmark-server-\(getpid())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let history = SyntheticHistory(tests: tests, runs: uploads)
            let bodies = try runs(of: history, in: folder)
            let results = tests * uploads
            let megabytes = Double(bodies.reduce(0) { $0 + $1.count }) / 1_048_576
            print(
                "Server load: \(uploads) uploads of one \(tests)-test run each (\(results) results, "
                    + String(format: "%.0f MiB", megabytes) + ") from \(clients) concurrent clients on loopback")

            let files = try bodies.enumerated().map { index, body in
                let file = folder.appending(path: "body\(index).ndjson")
                try body.write(to: file)
                return file
            }
            let direct = try LedgerDatabase(path: folder.appending(path: "direct.sqlite").path)
            let directSeconds = try Timing.seconds {
                for file in files {
                    let context = ImportContext(
                        runID: UUID().uuidString, sourceName: file.path, metadata: RunMetadata(project: "Bench"),
                        fallbackStart: 0)
                    try direct.ingest { sink in
                        try LedgerStreamImporter().importResults(from: .file(file), context: context, into: &sink)
                    }
                }
            }

            let served = try LedgerDatabase(path: folder.appending(path: "served.sqlite").path)
            let token = try Tokens.create(project: "Bench", scope: .write, in: served)
            let (latencies, httpSeconds) = try await LedgerServer.running(
                served, configuration: ServerConfiguration(port: 0)
            ) { port in
                try await send(bodies, to: "http://127.0.0.1:\(port)/api/v1/events", token: token, clients: clients)
            }
            let stored = try served.runs(limit: uploads + 1).reduce(0) { $0 + $1.tests }
            guard stored == results else { throw Failure("the server stored \(stored) of \(results) results") }

            Report.rate("direct ingest of the files (baseline)", results, directSeconds)
            Report.rate("HTTP ingest, \(clients) clients on loopback", results, httpSeconds)
            Report.ratio("HTTP ÷ direct ingestion rate", directSeconds / httpSeconds, atLeast: 0.5)
            let sorted = latencies.sorted()
            print(
                String(
                    format: "  request latency over %d requests: p50 %.0f ms, p99 %.0f ms, max %.0f ms", sorted.count,
                    sorted.percentile(0.5) * 1000, sorted.percentile(0.99) * 1000, (sorted.last ?? 0) * 1000))
        }

        /// The history's runs, one NDJSON body each.
        static func runs(of history: SyntheticHistory, in folder: URL) throws -> [Data] {
            let stream = folder.appending(path: "history.ndjson")
            try history.writeLedgerStream(to: stream)
            var bodies: [Data] = []
            var current = Data()
            let runStart = Data(#"{"v":1,"type":"run.start""#.utf8)
            for line in LineReader(.file(stream)) {
                if line.starts(with: runStart), !current.isEmpty {
                    bodies.append(current)
                    current = Data()
                }
                current.append(line)
                current.append(UInt8(ascii: "\n"))
            }
            if !current.isEmpty { bodies.append(current) }
            return bodies
        }

        /// Sends every body, `clients` at a time; returns each request's seconds and the wall time.
        static func send(_ bodies: [Data], to url: String, token: String, clients: Int) async throws -> (
            [Double], Double
        ) {
            let client = HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: .init(
                    connectionPool: .init(
                        idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: clients)))
            do {
                let start = DispatchTime.now().uptimeNanoseconds
                let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
                    for worker in 0..<clients {
                        group.addTask {
                            var seconds: [Double] = []
                            for index in stride(from: worker, to: bodies.count, by: clients) {
                                var request = HTTPClientRequest(url: url)
                                request.method = .POST
                                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                                request.headers.add(name: "Content-Type", value: "application/x-ndjson")
                                request.body = .bytes(ByteBuffer(data: bodies[index]))
                                let sent = DispatchTime.now().uptimeNanoseconds
                                let response = try await client.execute(request, timeout: .seconds(300))
                                let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
                                guard response.status == .created else {
                                    throw Failure("upload \(index): \(response.status.code) \(text)")
                                }
                                seconds.append(Double(DispatchTime.now().uptimeNanoseconds - sent) / 1e9)
                            }
                            return seconds
                        }
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
                let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                try await client.shutdown()
                return (latencies, wall)
            } catch {
                try? await client.shutdown()
                throw error
            }
        }

        struct Failure: Error, CustomStringConvertible {
            var description: String
            init(_ description: String) { self.description = description }
        }
    }

    /// A value handed out of a task to the thread that waits for it.
    final class UnsafeBox<Value>: @unchecked Sendable {
        var value: Value
        init(_ value: Value) { self.value = value }
    }
#endif
