import Foundation
import LedgerCore
import LedgerDelivery
import LedgerServer
import LedgerStore
import LedgerTestSupport
import Testing

@Suite struct IngestEndpointTests {
    let script = RunScript(project: "Sent").start().pass("Cart/adds").fail("Cart/removes").pass("Login/works").end()

    @Test func anEventStreamIsStoredUnderTheWriteTokensProject() async throws {
        try await LiveServer.with { server in
            let token = try server.token("Shop", .write)
            let answer = try await server.post("/api/v1/events", token: token, script.ndjson)
            #expect(answer.status == 201)
            let receipt = try JSONDecoder().decode(IngestReceipt.self, from: Data(answer.body.utf8))
            #expect(receipt.results == 3)
            #expect(receipt.runs == [script.run])
            let runs = try server.database.runs(project: "Shop")
            #expect(runs.map(\.id) == [script.run])
            #expect(runs.first?.failed == 1)
            #expect(try server.database.runs(project: "Sent").isEmpty)
        }
    }

    @Test func theSameUploadTwiceStoresOnce() async throws {
        try await LiveServer.with { server in
            let token = try server.token("Shop", .write)
            _ = try await server.post("/api/v1/events", token: token, script.ndjson)
            let again = try await server.post("/api/v1/events", token: token, script.ndjson)
            #expect(again.status == 201)
            let receipt = try JSONDecoder().decode(IngestReceipt.self, from: Data(again.body.utf8))
            #expect(receipt.results == 0)
            #expect(receipt.alreadyStored == 3)
            #expect(try server.storedResults() == 3)
        }
    }

    @Test func aGzipBodyIsAccepted() async throws {
        try await LiveServer.with { server in
            let token = try server.token("Shop", .write)
            let answer = try await server.postGzip(
                "/api/v1/events", token: token, try Gzip.compress(Array(script.ndjson.utf8)))
            #expect(answer.status == 201, "\(answer.body)")
            #expect(try server.storedResults() == 3)
        }
    }

    @Test(.timeLimit(.minutes(1))) func gzipMembersOneAfterTheOtherAreReadInTurn() async throws {
        let first = RunScript(project: "Shop").start().pass("Cart/adds")
        let whole = first.pass("Cart/removes").end()
        let head = whole.ndjson.utf8.prefix(first.ndjson.utf8.count)
        let tail = whole.ndjson.utf8.dropFirst(first.ndjson.utf8.count)
        try await LiveServer.with { server in
            let token = try server.token("Shop", .write)
            let answer = try await server.postGzip(
                "/api/v1/events", token: token, try Gzip.compress(Array(head)) + Gzip.compress(Array(tail)))
            #expect(answer.status == 201, "\(answer.body)")
            #expect(try server.storedResults() == 2)
        }
    }

    @Test(.timeLimit(.minutes(1))) func aGzipBodyManyWindowsLongIsReadWhole() async throws {
        var script = RunScript(project: "Shop").start()
        for index in 0..<3_000 { script = script.pass("Cart/adds item \(index)") }
        let ndjson = script.end().ndjson
        let body = try Gzip.compress(Array(ndjson.utf8))
        #expect(ndjson.utf8.count > 16 * body.count, "few compressed bytes fill the window many times")
        try await LiveServer.with { server in
            let token = try server.token("Shop", .write)
            let answer = try await server.postGzip("/api/v1/events", token: token, body)
            #expect(answer.status == 201, "\(answer.body)")
            #expect(try server.storedResults() == 3_000)
        }
    }

    /// Without its 8-byte trailer every line still inflates: only the missing end tells.
    @Test(.timeLimit(.minutes(1))) func aGzipBodyCutShortIs400EvenBetweenLines() async throws {
        let whole = try Gzip.compress(Array(script.ndjson.utf8))
        try await LiveServer.with { server in
            let token = try server.token("Shop", .write)
            for cut in [8, whole.count / 2] {
                let answer = try await server.postGzip("/api/v1/events", token: token, Array(whole.dropLast(cut)))
                #expect(answer.status == 400, "\(answer.body)")
                #expect(answer.body.contains("cut short"), "\(answer.body)")
            }
            #expect(try server.storedResults() == 0)
        }
    }

    @Test(.timeLimit(.minutes(1))) func bytesAfterTheGzipStreamAre400() async throws {
        let short = RunScript(project: "Shop").start().pass("Cart/adds").end()
        try await LiveServer.with { server in
            let token = try server.token("Shop", .write)
            let answer = try await server.postGzip(
                "/api/v1/events", token: token, try Gzip.compress(Array(short.ndjson.utf8)) + Array("\ntrailing".utf8))
            #expect(answer.status == 400, "\(answer.body)")
            #expect(answer.body.contains("gzip"))
            #expect(try server.storedResults() == 0)
        }
    }

    @Test func aCorruptGzipBodyIs400() async throws {
        try await LiveServer.with { server in
            let token = try server.token("Shop", .write)
            let answer = try await server.postGzip("/api/v1/events", token: token, Array("not gzip at all".utf8))
            #expect(answer.status == 400)
            #expect(try server.storedResults() == 0)
        }
    }

    @Test func malformedInputIs400WithTheLineAndStoresNothing() async throws {
        try await LiveServer.with { server in
            let token = try server.token("Shop", .write)
            var lines = script.ndjson.split(separator: "\n").map(String.init)
            lines[4] = "{\"v\":1,\"type\":\"test.end\",\"run\":"
            let answer = try await server.post("/api/v1/events", token: token, lines.joined(separator: "\n"))
            #expect(answer.status == 400)
            #expect(answer.body.contains("request body:5: not valid JSON"), "\(answer.body)")
            #expect(try server.database.runs().isEmpty)
            #expect(server.metrics.text.contains("testledger_rejected_inputs_total 1"))
        }
    }

    @Test func aBodyOverTheLimitIs413AndStoresNothing() async throws {
        try await LiveServer.with(ServerConfiguration(port: 0, maximumBodyBytes: 4_096)) { server in
            let token = try server.token("Shop", .write)
            var big = RunScript(project: "Shop").start()
            for index in 0..<200 { big = big.pass("Big/test\(index)") }
            let answer = try await server.post("/api/v1/events", token: token, big.end().ndjson)
            #expect(answer.status == 413)
            #expect(try server.database.runs().isEmpty)
        }
    }

    @Test func aGzipBombIsStoppedAtTheLimit() async throws {
        try await LiveServer.with(ServerConfiguration(port: 0, maximumBodyBytes: 1 << 20)) { server in
            let token = try server.token("Shop", .write)
            let bomb = try Gzip.compress([UInt8](repeating: 0x20, count: 64 << 20))
            #expect(bomb.count < 200_000)
            let answer = try await server.postGzip("/api/v1/events", token: token, bomb)
            #expect(answer.status == 413)
        }
    }

    @Test func aJUnitFileIsImportedWithItsMetadata() async throws {
        let junit = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites><testsuite name="CartTests" tests="2" failures="1">
            <testcase classname="CartTests" name="testAdds" time="0.01"/>
            <testcase classname="CartTests" name="testRemoves" time="0.02"><failure message="boom">x</failure></testcase>
            </testsuite></testsuites>
            """
        try await LiveServer.with { server in
            let token = try server.token("Shop", .write)
            let answer = try await server.post(
                "/api/v1/imports?format=junit&branch=main&revision=abc123", token: token, junit,
                headers: [("X-Testledger-Build", "77")])
            #expect(answer.status == 201, "\(answer.body)")
            let detected = try await server.post("/api/v1/imports", token: token, junit)
            #expect(detected.status == 201)
            let receipt = try JSONDecoder().decode(IngestReceipt.self, from: Data(detected.body.utf8))
            #expect(receipt.format == "junit")
            let run = try #require(try server.database.runs(project: "Shop").first)
            #expect(run.failed == 1)
            #expect(run.branch == "main")
            #expect(run.revision == "abc123")
            #expect(run.build == "77")
        }
    }

    @Test func anXMLEntityAttackIs400AndStoresNothing() async throws {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
            <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
            <testsuites><testsuite name="&lol3;"><testcase classname="c" name="&lol3;"/></testsuite></testsuites>
            """
        try await LiveServer.with { server in
            let token = try server.token("Shop", .write)
            let answer = try await server.post("/api/v1/imports?format=junit", token: token, laughs)
            #expect(answer.status == 400)
            #expect(answer.body.contains("request body"), "\(answer.body)")
            #expect(answer.body.contains("document type declaration"), "\(answer.body)")
            #expect(try server.database.runs().isEmpty)
        }
    }

    @Test func anUnknownFormatIs400() async throws {
        try await LiveServer.with { server in
            let token = try server.token("Shop", .write)
            let named = try await server.post("/api/v1/imports?format=csv", token: token, "a,b")
            #expect(named.status == 400)
            #expect(named.body.contains("junit"))
            let unrecognised = try await server.post("/api/v1/imports", token: token, "hello")
            #expect(unrecognised.status == 400)
            #expect(unrecognised.body.contains("not a format testledger reads"))
        }
    }

    @Test func hostileTestNamesAreStoredAsText() async throws {
        let name = "Evil/'); DROP TABLE run; -- <script>alert(1)</script>"
        let hostile = RunScript(project: "Shop").start().fail(name).end()
        try await LiveServer.with { server in
            let token = try server.token("Shop", .write)
            #expect(try await server.post("/api/v1/events", token: token, hostile.ndjson).status == 201)
            let runs = try await server.get("/api/v1/projects/Shop/runs", token: try server.token("Shop", .read))
            #expect(runs.status == 200)
            // Found by its exact name, so it was stored as text and the run table is still there.
            let detail = try server.database.testDetail(test: name, run: nil)
            #expect(detail.outcome == .ended(.failed))
        }
    }

    @Test func fiftyConcurrentUploadsLoseNothing() async throws {
        try await LiveServer.with { server in
            let token = try server.token("Shop", .write)
            let shared = RunScript(project: "Shop").start()
            try await withThrowingTaskGroup(of: Int.self) { group in
                for job in 0..<50 {
                    group.addTask {
                        // Half the jobs share one run, each with its own tests; half have runs of their own.
                        var upload = job.isMultiple(of: 2) ? shared : RunScript(project: "Shop").start()
                        for index in 0..<20 { upload = upload.pass("Job\(job)/test\(index)") }
                        return try await server.post("/api/v1/events", token: token, upload.ndjson).status
                    }
                }
                for try await status in group { #expect(status == 201) }
            }
            #expect(try server.storedResults() == 50 * 20)
            #expect(try server.database.runs(limit: 100).count == 26)
        }
    }
}
