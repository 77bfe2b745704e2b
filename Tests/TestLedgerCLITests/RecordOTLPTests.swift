import Foundation
import Hummingbird
import LedgerTestSupport
import Testing

/// `record --otlp-endpoint`: the run's trace reaches a collector that accepts it, whole.
@Suite(
    .enabled(
        if: OutsideTools.available("opentelemetry-proto"), Comment(rawValue: OutsideTools.skip("opentelemetry-proto"))
    )) struct RecordOTLPTests
{
    @Test func theRecordedRunsTraceIsReadByOpenTelemetrysOwnDefinitions() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let junit = """
            <testsuites><testsuite name="CartTests" tests="3">
            <testcase classname="CartTests" name="testAdds" time="0.2"/>
            <testcase classname="CartTests" name="testRemoves" time="0.1"/>
            <testcase classname="CartTests" name="testPays" time="0.4"><failure message="declined"/></testcase>
            </testsuite></testsuites>
            """
        let source = try cli.directory.write("source.xml", junit)
        let received = ExportOTLPTests.Received()
        let router = Router()
        router.post("/v1/traces") { request, _ -> Response in
            await received.keep(Data(buffer: try await request.body.collect(upTo: 16 << 20)), path: "", header: nil)
            return Response(status: .ok)
        }
        let recorded = try await LoopbackServer.serve(router) { address in
            try await cli.run([
                "record", "--project", "Shop", "--otlp-endpoint", address, "--junit", "results.xml", "--", "cp",
                source.path, "results.xml",
            ])
        }
        #expect(recorded.status == 0, "the command's status is the job's: \(recorded.stderr)")
        #expect(recorded.stdout.contains("3 tests"), "\(recorded.stdout)")
        let bodies = await received.bodies
        #expect(bodies.count == 1, "one trace a run")
        let file = try cli.directory.write("traces.json", String(decoding: try #require(bodies.first), as: UTF8.self))
        let checker = CLI.packageRoot.appending(path: "Tests/Fixtures/OTLP/check_traces.py").path
        let read = try await ChildProcess.runTool(["python3", checker, file.path])
        #expect(read.status == 0, "\(read.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any])
        // The run and its three tests: a trace that is not empty.
        #expect((summary["spans"] as? Int ?? 0) >= 4, "\(summary)")
        #expect((summary["traces"] as? [String])?.count == 1)
        #expect(summary["roots"] as? [String] == ["test run Shop"])
    }
}
