import Foundation
import Hummingbird
import LedgerCore
import LedgerTestSupport
import Testing

/// `export otlp` against a receiver on 127.0.0.1 that keeps what it is sent, compared with `show`.
@Suite struct ExportOTLPTests {
    actor Received {
        var bodies: [Data] = []
        var paths: [String] = []
        var headers: [String] = []
        func keep(_ body: Data, path: String, header: String?) {
            bodies.append(body)
            paths.append(path)
            headers.append(header ?? "")
        }
    }

    /// A run: a test that failed in a step whose predicate did not hold, then passed, its second
    /// attempt with a step inside a step, a predicate and a capture; and a failing test.
    static let run = "5f0c0a7e-1d2b-4c3d-8e4f-a1b2c3d4e5f6"
    static let stream = RunScript(run: run, project: "Shop", at: 1_800_000_000).start(branch: "feature")
        .with(.testStart(.init(at: 1_800_000_000.1, test: "Cart/flaky", attempt: 1, suite: "Cart", name: "flaky")))
        .with(.activityStart(.init(at: 1_800_000_000.2, test: "Cart/flaky", attempt: 1, activity: "b1", name: "Open")))
        .with(
            .predicate(
                .init(
                    at: 1_800_000_000.5, test: "Cart/flaky", attempt: 1, name: "spinner gone", expect: .holds,
                    held: false, attempts: 10, waited: 0.3, timeout: 0.3))
        )
        .with(.activityEnd(.init(at: 1_800_000_000.55, activity: "b1", outcome: .failed)))
        .with(.testEnd(.init(at: 1_800_000_000.6, test: "Cart/flaky", attempt: 1, outcome: .failed, duration: 0.5)))
        .with(.testStart(.init(at: 1_800_000_001, test: "Cart/flaky", attempt: 2, suite: "Cart", name: "flaky")))
        .with(.activityStart(.init(at: 1_800_000_001.1, test: "Cart/flaky", attempt: 2, activity: "a1", name: "Open")))
        .with(
            .activityStart(
                .init(at: 1_800_000_001.2, test: "Cart/flaky", attempt: 2, activity: "a2", parent: "a1", name: "Tap"))
        )
        .with(
            .predicate(
                .init(
                    at: 1_800_000_001.3, test: "Cart/flaky", attempt: 2, name: "spinner gone", expect: .holds,
                    held: true, attempts: 4, waited: 0.2, timeout: 1))
        )
        .with(
            .capture(
                .init(
                    at: 1_800_000_001.4, test: "Cart/flaky", attempt: 2, verifier: "AlertSpy",
                    fields: .object(["title": .string("Saved")])))
        )
        .with(.activityEnd(.init(at: 1_800_000_001.5, activity: "a2", outcome: .passed)))
        .with(.activityEnd(.init(at: 1_800_000_001.6, activity: "a1", outcome: .passed)))
        .with(.testEnd(.init(at: 1_800_000_002, test: "Cart/flaky", attempt: 2, outcome: .passed, duration: 1)))
        .fail("Cart/broken")
        .end().ndjson

    /// Another run, already ended, of one passing test.
    static let other = RunScript(run: "00000000-0000-0000-0000-00000000000b", project: "Shop", at: 1_800_000_100)
        .start().pass("Cart/other").end().ndjson

    /// The trace as a collector reads it: by OpenTelemetry's own protobuf definitions
    /// (`Tests/Fixtures/OTLP/check_traces.py`), not the exporter's types.
    @Test(
        .enabled(
            if: OutsideTools.available("opentelemetry-proto"),
            Comment(rawValue: OutsideTools.skip("opentelemetry-proto"))))
    func theTraceIsReadByOpenTelemetrysOwnDefinitions() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        _ = try await cli.run(["ingest", "-", "--format", "ledger"], stdin: Self.stream)
        let received = Received()
        let router = Router()
        router.post("/v1/traces") { request, _ -> Response in
            await received.keep(Data(buffer: try await request.body.collect(upTo: 16 << 20)), path: "", header: nil)
            return Response(status: .ok)
        }
        let exported = try await LoopbackServer.serve(router) { address in
            try await cli.run(["export", "otlp", Self.run, "--endpoint", address])
        }
        #expect(exported.status == 0, "\(exported.stderr)")
        let body = try #require(await received.bodies.first)
        let checker = CLI.packageRoot.appending(path: "Tests/Fixtures/OTLP/check_traces.py").path
        let file = try cli.directory.write("traces.json", String(decoding: body, as: UTF8.self))
        let read = try await ChildProcess.runTool(["python3", checker, file.path])
        #expect(read.status == 0, "\(read.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])
        #expect(summary["spans"] as? Int == 7)
        #expect(summary["traces"] as? [String] == ["5f0c0a7e1d2b4c3d8e4fa1b2c3d4e5f6"])
        #expect(summary["roots"] as? [String] == ["test run Shop"])

        // The reader fails what a collector would refuse: a span id of 6 bytes.
        let text = String(decoding: body, as: UTF8.self)
        let spanID = try #require(text.firstMatch(of: /"spanId":"([0-9a-f]{16})"/)?.1)
        let short = try cli.directory.write(
            "short.json", text.replacingOccurrences(of: spanID, with: spanID.prefix(12)))
        let refused = try await ChildProcess.runTool(["python3", checker, short.path])
        #expect(refused.status != 0 && refused.stderr.contains("span id of 6 bytes"), "\(refused.stderr)")
    }

    @Test func aRunIsATraceOfItsAttemptsStepsAndEvents() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let ingested = try await cli.run(["ingest", "-", "--format", "ledger"], stdin: Self.stream)
        #expect(ingested.status == 0, "\(ingested.stderr)")
        let received = Received()
        let router = Router()
        router.post("/v1/traces") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 16 << 20)
            await received.keep(
                Data(buffer: body), path: request.uri.path, header: request.headers[.init("X-Team")!])
            return Response(status: .ok)
        }
        let exported = try await LoopbackServer.serve(router) { address in
            try await cli.run(
                ["export", "otlp", Self.run, "--endpoint", address, "--header", "X-Team=ios"])
        }
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.contains("run \(Self.run): 7 span(s) to http://127.0.0.1:"), "\(exported.stdout)")
        #expect(await received.headers == ["ios"])

        let body = try #require(await received.bodies.first)
        let request = try JSONDecoder().decode(OTLP.TracesRequest.self, from: body)
        let spans = request.resourceSpans.flatMap(\.scopeSpans).flatMap(\.spans)
        let resource = request.resourceSpans.first?.resource.attributes ?? []
        #expect(resource.first { $0.key == "vcs.ref.head.name" }?.value.stringValue == "feature")
        #expect(Set(spans.map(\.traceId)) == ["5f0c0a7e1d2b4c3d8e4fa1b2c3d4e5f6"])
        let root = try #require(spans.first { $0.parentSpanId == nil })
        #expect(root.status.code == 2 && root.name == "test run Shop")
        func attribute(_ span: OTLP.Span, _ key: String) -> OTLP.Value? {
            span.attributes.first { $0.key == key }?.value
        }
        let attempts = spans.filter { $0.parentSpanId == root.spanId }
        #expect(attempts.map(\.name) == ["Cart/broken", "Cart/flaky", "Cart/flaky"])
        #expect(attempts.map { attribute($0, "test.case.result.status")?.stringValue } == ["fail", "fail", "pass"])
        #expect(attempts.map { attribute($0, "testledger.attempt")?.intValue } == ["1", "1", "2"])
        #expect(attempts[0].status.code == 2 && attempts[0].status.message == "failed")

        // The final attempt, as `show` gives it: its steps nest under it, its evidence are its events.
        let show = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try await cli.run(["show", "Cart/flaky", "--format", "json"]).stdout.utf8))
                as? [String: Any])
        let final = attempts[2]
        #expect(final.startTimeUnixNano == "1800000001000000000" && final.endTimeUnixNano == "1800000002000000000")
        let steps = try #require(show["activities"] as? [[String: Any]])
        let open = try #require(spans.first { $0.parentSpanId == final.spanId })
        #expect(open.name == steps.first?["name"] as? String)
        let tap = try #require(spans.first { $0.parentSpanId == open.spanId })
        #expect(tap.name == (steps.first?["children"] as? [[String: Any]])?.first?["name"] as? String)
        #expect(tap.startTimeUnixNano == "1800000001200000000" && tap.endTimeUnixNano == "1800000001500000000")
        #expect(final.events.map(\.name) == ["testledger.predicate", "testledger.capture"])
        #expect(final.events[0].attributes.first { $0.key == "testledger.predicate.attempts" }?.value.intValue == "4")
        #expect(
            final.events[1].attributes.first { $0.key == "testledger.capture.fields" }?.value.stringValue
                == #"{"title":"Saved"}"#)
        #expect(
            (show["predicates"] as? [[String: Any]])?.count == 1 && (show["captures"] as? [[String: Any]])?.count == 1)

        // The failed attempt carries its own evidence, as `show --attempt 1` gives it.
        let failed = attempts[1]
        let shownFirst = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try await cli.run(["show", "Cart/flaky", "--attempt", "1", "--format", "json"]).stdout.utf8))
                as? [String: Any])
        #expect(shownFirst["attempt"] as? Int == 1 && shownFirst["outcome"] as? String == "failed", "\(shownFirst)")
        let firstSteps = try #require(shownFirst["activities"] as? [[String: Any]])
        let firstOpen = try #require(spans.first { $0.parentSpanId == failed.spanId })
        #expect(firstOpen.name == firstSteps.first?["name"] as? String && firstOpen.status.code == 2)
        #expect(firstOpen.startTimeUnixNano == "1800000000200000000")
        #expect(failed.events.map(\.name) == ["testledger.predicate"])
        let held = failed.events.first?.attributes.first { $0.key == "testledger.predicate.held" }?.value
        #expect(held?.boolValue == false)
        #expect(((shownFirst["predicates"] as? [[String: Any]])?.first?["held"] as? Bool) == false)
        let text = try await cli.run(["show", "Cart/flaky", "--attempt", "1"]).stdout
        #expect(text.contains("(attempt 1 of 2: failed, passed)") && text.contains("spinner gone"), "\(text)")
        let unknown = try await cli.run(["show", "Cart/flaky", "--attempt", "3"])
        #expect(unknown.status != 0 && unknown.stderr.contains("Cart/flaky attempt 3"), "\(unknown.stderr)")
    }

    @Test func aCollectorThatRefusesFailsTheExport() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        _ = try await cli.run(["ingest", "-", "--format", "ledger"], stdin: Self.stream)
        let router = Router()
        router.post("/v1/traces") { _, _ in Response(status: .badRequest) }
        let refused = try await LoopbackServer.serve(router) { address in
            try await cli.run(["export", "otlp", "--endpoint", address + "/v1/traces"])
        }
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("testledger: run "), "\(refused.stderr)")
        #expect(refused.stderr.contains("answered HTTP 400"), "\(refused.stderr)")
        let missing = try await cli.run(["export", "otlp"])
        #expect(missing.status != 0 && missing.stderr.contains("--endpoint"), "\(missing.stderr)")
    }

    @Test func serveSendsEachStoredRunOnceItHasEnded() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let token = try await cli.token("Shop")
        let received = Received()
        let router = Router()
        router.post("/v1/traces") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 16 << 20)
            await received.keep(Data(buffer: body), path: request.uri.path, header: nil)
            return Response(status: .ok)
        }
        let bodies = try await LoopbackServer.serve(router) { collector in
            let server = try ServerProcess(cli, ["--otlp-endpoint", collector])
            defer { server.stop() }
            func upload(_ stream: String) async throws {
                let sent = try await cli.run(
                    ["upload", "-", "--format", "ledger", "--url", server.url, "--token", token],
                    stdin: stream, environment: ["TESTLEDGER_SPOOL": cli.directory.path("spool")])
                #expect(sent.status == 0, "\(sent.stderr)")
            }
            /// Waits, a minute at most, for the collector to have `count` traces.
            func traces(_ count: Int) async throws -> [Data] {
                let deadline = Date().addingTimeInterval(60)
                while await received.bodies.count < count, Date() < deadline {
                    try await Task.sleep(for: .milliseconds(50))
                }
                return await received.bodies
            }
            // The run without its end, then a whole other run: only the other is sent, though it
            // was stored after.
            let lines = Self.stream.split(separator: "\n")
            try await upload(lines.dropLast().joined(separator: "\n") + "\n")
            try await upload(Self.other)
            let first = try await traces(1)
            // Its end comes: now it is sent.
            try await upload(String(lines.last ?? "") + "\n")
            return [first.first ?? Data()] + (try await traces(2)).dropFirst()
        }
        #expect(bodies.count == 2)
        let traceIDs = try bodies.map { body in
            let request = try JSONDecoder().decode(OTLP.TracesRequest.self, from: body)
            return Set(request.resourceSpans.flatMap(\.scopeSpans).flatMap(\.spans).map(\.traceId))
        }
        #expect(traceIDs == [["0000000000000000000000000000000b"], ["5f0c0a7e1d2b4c3d8e4fa1b2c3d4e5f6"]])
        let last = try JSONDecoder().decode(OTLP.TracesRequest.self, from: try #require(bodies.last))
        #expect(last.resourceSpans.flatMap(\.scopeSpans).flatMap(\.spans).count == 7)
        #expect(await received.paths == ["/v1/traces", "/v1/traces"])
    }
}
