import Foundation
import Hummingbird
import LedgerTestSupport
import Testing

/// `testledger upload` against a server that fails before it answers.
@Suite struct UploadRetryTests {
    /// Counts the requests; answers each with the next status of its script, then 201.
    actor Script {
        var statuses: [HTTPResponse.Status]
        private(set) var requests = 0

        init(_ statuses: [HTTPResponse.Status]) { self.statuses = statuses }

        func next() -> HTTPResponse.Status {
            requests += 1
            return statuses.isEmpty ? .created : statuses.removeFirst()
        }
    }

    /// Runs `body` with the URL of a server that follows `script`.
    func withServer<T: Sendable>(_ script: Script, _ body: @escaping @Sendable (String) throws -> T) async throws -> T {
        let router = Router()
        router.post("/api/v1/events") { request, _ -> Response in
            _ = try await request.body.collect(upTo: 64 << 20)
            let status = await script.next()
            let body =
                status == .created
                ? #"{"format":"ledger","runs":["r"],"results":1,"alreadyStored":0,"crashed":0,"warnings":[]}"# : "busy"
            return Response(status: status, body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        let (ports, announce) = AsyncStream.makeStream(of: Int.self)
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { announce.yield($0.localAddress?.port ?? 0) })
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await application.run() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            // The upload blocks its thread: give it one of its own, not one of the server's.
            let result: Result<T, any Error> = await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(returning: Result { try body("http://127.0.0.1:\(port)") })
                }
            }
            group.cancelAll()
            return try result.get()
        }
    }

    static let stream = RunScript(project: "Shop").start().pass("Cart/adds").end().ndjson

    @Test func serverErrorsAreRetriedUntilTheBatchIsStored() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let script = Script([.serviceUnavailable, .badGateway])
        let output = try await withServer(script) { url in
            try cli.run(
                ["upload", "-", "--format", "ledger", "--url", url, "--token", "tl_x", "--retries", "3"],
                stdin: Self.stream, environment: ["TESTLEDGER_SPOOL": cli.directory.path("spool")])
        }
        #expect(output.status == 0, "\(output.stderr)")
        #expect(await script.requests == 3)
        let left = try FileManager.default.contentsOfDirectory(atPath: cli.directory.path("spool"))
        #expect(!left.contains { $0.hasSuffix(".ndjson") }, "\(left)")
    }

    @Test func aServerThatStaysDownLeavesTheBatchSpooled() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let script = Script(Array(repeating: .serviceUnavailable, count: 10))
        let output = try await withServer(script) { url in
            try cli.run(
                ["upload", "-", "--format", "ledger", "--url", url, "--token", "tl_x", "--retries", "2"],
                stdin: Self.stream, environment: ["TESTLEDGER_SPOOL": cli.directory.path("spool")])
        }
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("testledger upload --spool"), "\(output.stderr)")
        #expect(await script.requests == 3)
        let left = try FileManager.default.contentsOfDirectory(atPath: cli.directory.path("spool"))
        #expect(left.filter { $0.hasSuffix(".ndjson") }.count == 1, "\(left)")
    }
}
