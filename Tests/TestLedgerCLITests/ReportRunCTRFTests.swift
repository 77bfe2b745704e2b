import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// `report run --format ctrf`: valid by CTRF's schema, and read back by `ingest` to the same tests.
@Suite struct ReportRunCTRFTests {
    static let schema = CLI.packageRoot.appending(path: "Tests/Fixtures/CTRF/ctrf.schema.json").path

    /// A run with a pass, a failure, a test that passed on its second attempt, a skip and a suite.
    static let stream = RunScript(project: "Shop").start(branch: "feature")
        .pass("Cart/adds")
        .fail("Cart/refunds")
        .result("Cart/flaky", .failed, attempt: 1, duration: 0.2)
        .result("Cart/flaky", .passed, attempt: 2, duration: 0.3)
        .result("Cart/later", .skipped)
        .with(
            .testStart(.init(at: 9, test: "Checkout/pays", suite: "Checkout", name: "pays", file: "T.swift", line: 4))
        )
        .with(.testEnd(.init(at: 9.5, test: "Checkout/pays", outcome: .passed, duration: 0.5)))
        .end().ndjson

    func ctrf(_ cli: CLI) async throws -> [String: Any] {
        let output = try await cli.run(["report", "run", "--format", "ctrf"])
        #expect(output.status == 0, "\(output.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    }

    func tests(_ document: [String: Any]) -> [String: [String: Any]] {
        let tests = (document["results"] as? [String: Any])?["tests"] as? [[String: Any]] ?? []
        return Dictionary(
            tests.map { (($0["suite"] as? [String])?.first.map { "\($0)/" } ?? "") + "\($0["name"] ?? "")" }
                .enumerated().map { ($1, tests[$0]) }, uniquingKeysWith: { a, _ in a })
    }

    @Test(.enabled(if: InstalledTools.checkJSONSchema != nil, InstalledTools.checkJSONSchemaSkip))
    func aRunRoundTripsThroughCTRF() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let ingested = try await cli.run(["ingest", "-", "--format", "ledger"], stdin: Self.stream)
        #expect(ingested.status == 0, "\(ingested.stderr)")
        let written = try await cli.run(["report", "run", "--format", "ctrf"])
        let file = try cli.directory.write("run.ctrf.json", written.stdout)
        let checked = try await ChildProcess.runTool(["check-jsonschema", "--schemafile", Self.schema, file.path])
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")

        let first = try await ctrf(cli)
        let summary = try #require((first["results"] as? [String: Any])?["summary"] as? [String: Any])
        #expect(summary["tests"] as? Int == 5 && summary["passed"] as? Int == 3 && summary["failed"] as? Int == 1)
        #expect(summary["skipped"] as? Int == 1 && summary["flaky"] as? Int == 1)
        let byID = tests(first)
        #expect(Set(byID.keys) == ["Cart/adds", "Cart/refunds", "Cart/flaky", "Cart/later", "Checkout/pays"])
        let flaky = try #require(byID["Cart/flaky"])
        #expect(flaky["retries"] as? Int == 1 && flaky["flaky"] as? Bool == true && flaky["duration"] as? Int == 300)
        #expect((flaky["retryAttempts"] as? [[String: Any]])?.map { $0["status"] as? String } == ["failed"])
        let refunds = try #require(byID["Cart/refunds"]?["extra"] as? [String: Any])
        #expect((refunds["testledger"] as? [String: Any])?["verdict"] as? String == "new")
        #expect(byID["Checkout/pays"]?["filePath"] as? String == "T.swift")

        // Read back into another ledger: the same tests, statuses and attempts.
        let other = try CLI()
        defer { other.directory.remove() }
        let back = try await other.run(["ingest", file.path])
        #expect(back.status == 0 && back.stdout.contains("ctrf"), "\(back.stdout)\(back.stderr)")
        let again = tests(try await ctrf(other))
        #expect(Set(again.keys) == Set(byID.keys))
        for (id, test) in byID {
            #expect(again[id]?["status"] as? String == test["status"] as? String, "\(id)")
            #expect(again[id]?["retries"] as? Int == test["retries"] as? Int, "\(id)")
            #expect(again[id]?["duration"] as? Int == test["duration"] as? Int, "\(id)")
        }
    }
}
