import Foundation
import Hummingbird
import LedgerCore
import LedgerDelivery
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
    func withServer<T: Sendable>(_ script: Script, _ body: @escaping @Sendable (String) async throws -> T) async throws
        -> T
    {
        let router = Router()
        router.post("/api/v1/events") { request, _ -> Response in
            _ = try await request.body.collect(upTo: 64 << 20)
            let status = await script.next()
            let body =
                status == .created
                ? #"{"format":"ledger","runs":["r"],"results":1,"alreadyStored":0,"crashed":0,"warnings":[]}"# : "busy"
            return Response(status: status, body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        return try await LoopbackServer.serve(router, body)
    }

    static let stream = RunScript(project: "Shop").start().pass("Cart/adds").end().ndjson

    @Test func serverErrorsAreRetriedUntilTheBatchIsStored() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let script = Script([.serviceUnavailable, .badGateway])
        let output = try await withServer(script) { url in
            try await cli.run(
                [
                    "upload", "-", "--format", "ledger", "--url", url, "--token", "tl_x", "--retries", "3",
                    "--retry-delay", "0.01",
                ],
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
            try await cli.run(
                [
                    "upload", "-", "--format", "ledger", "--url", url, "--token", "tl_x", "--retries", "2",
                    "--retry-delay", "0.01",
                ],
                stdin: Self.stream, environment: ["TESTLEDGER_SPOOL": cli.directory.path("spool")])
        }
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("testledger upload --spool"), "\(output.stderr)")
        #expect(await script.requests == 3)
        let left = try FileManager.default.contentsOfDirectory(atPath: cli.directory.path("spool"))
        #expect(left.filter { $0.hasSuffix(".ndjson") }.count == 1, "\(left)")
    }

    /// Records the waits the client asks for instead of waiting.
    final class Waits: @unchecked Sendable {
        private let lock = NSLock()
        private var waits: [Double] = []
        var all: [Double] { lock.withLock { waits } }
        func add(_ seconds: Double) { lock.withLock { waits.append(seconds) } }
    }

    @Test func theClientWaitsThePolicysDelaysBetweenTries() async throws {
        let script = Script([.serviceUnavailable, .tooManyRequests])
        let waits = Waits()
        let delivery = try await withServer(script) { url in
            let client = UploadClient(
                server: try #require(URL(string: url)), token: "tl_x", policy: ResendPolicy(retries: 4, first: 0.5),
                sleep: waits.add)
            return try await onOwnThread { client.send(Data(Self.stream.utf8), live: false) }
        }
        guard case .stored(let receipt) = delivery else { throw CancellationError() }
        #expect(receipt.results == 1)
        #expect(waits.all == [0.5, 1], "one wait before each retry, doubling")
    }

    @Test func aClientErrorIsFinalAndNotRetried() async throws {
        let script = Script([.badRequest])
        let waits = Waits()
        let delivery = try await withServer(script) { url in
            let client = UploadClient(server: try #require(URL(string: url)), token: "tl_x", sleep: waits.add)
            return try await onOwnThread { client.send(Data(Self.stream.utf8), live: false) }
        }
        #expect(delivery == .refused(status: 400, message: "HTTP 400: busy"))
        #expect(waits.all.isEmpty)
        #expect(await script.requests == 1)
    }

    @Test func aServerThatIsNotThereIsUnreachableAfterEveryRetry() async throws {
        let waits = Waits()
        let client = UploadClient(
            server: try #require(URL(string: "http://127.0.0.1:9")), token: "tl_x", policy: ResendPolicy(retries: 2),
            sleep: waits.add)
        let delivery = try await onOwnThread { client.send(Data(Self.stream.utf8), live: true) }
        guard case .unreachable = delivery else { throw CancellationError() }
        #expect(waits.all == [0.5, 1])
    }
}
