import Foundation
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

@Suite struct ReportQueryTests {
    @Test(arguments: StoreKind.available) func pyramidOfTheLatestRunClassifiesLayers(kind: StoreKind) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            var script = RunScript(at: 100).start()
            for index in 0..<7 { script = script.pass("DemoTests.Unit/t\(index)", duration: 0.01) }
            script = script.pass("DemoIntegrationTests.Store/t1", duration: 0.5).fail(
                "DemoIntegrationTests.Store/t2", duration: 0.5)
            script = script.result("Demo.Login/t", .passed, duration: 3, layer: .ui).end()
            try ledger.ingest(RunScript(at: 50).start().pass("Old/t").end().records + script.records)
            let report = try ledger.database.pyramidReport(
                project: nil, run: nil, since: nil, classifier: LayerClassifier())
            #expect(report.run == script.run)
            #expect(report.layers.map(\.tests) == [7, 2, 1])
            #expect(report.layers[1].failureRate == 0.5)
            #expect(report.verdict == .pyramid)
            let older = try ledger.database.pyramidReport(
                project: nil, run: nil, since: 0, classifier: LayerClassifier())
            #expect(older.layers.map(\.tests) == [8, 2, 1])
            #expect(older.runs == 2)
        }
    }

    @Test(arguments: StoreKind.available) func unknownRunIsNamed(kind: StoreKind) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            try ledger.ingest(RunScript().start().pass("A/a").end().records)
            #expect(throws: StoreError.noSuchRun("nope")) {
                try ledger.database.pyramidReport(project: nil, run: "nope", since: nil, classifier: LayerClassifier())
            }
        }
    }

    @Test(arguments: StoreKind.available) func flakyReportOverStoredRuns(kind: StoreKind) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            var records: [LedgerRecord] = []
            for index in 0..<10 {
                var script = RunScript(revision: "rev\(index / 2)", at: Double(1_000 + index * 100)).start()
                script = script.pass("A/stable")
                script = index % 3 == 0 ? script.fail("A/flips") : script.pass("A/flips")
                script =
                    index == 9
                    ? script.result("A/retried", .failed).result("A/retried", .passed, attempt: 2)
                    : script.pass("A/retried")
                script = index >= 6 ? script.fail("A/broken") : script.pass("A/broken")
                let held = index % 2 == 0
                script = script.with(.testStart(.init(at: script.clock, test: "A/waits")))
                    .with(
                        .predicate(
                            .init(
                                at: script.clock, test: "A/waits", name: "spinner gone", expect: .holds, held: held,
                                attempts: held ? 5 : 100, waited: held ? 0.05 : 1, timeout: 1))
                    )
                    .with(
                        .testEnd(
                            .init(at: script.clock, test: "A/waits", outcome: held ? .passed : .failed, duration: 1)))
                records += script.end().records
            }
            try ledger.ingest(records)
            let report = try ledger.database.flakyReport(
                project: nil, runs: 30, since: nil, thresholds: FlakyThresholds(), now: 10_000)
            #expect(report.runs == 10)
            #expect(Set(report.flaky.map(\.test)) == ["A/flips", "A/retried", "A/waits"])
            #expect(report.broken.map(\.test) == ["A/broken"])
            let retried = try #require(report.flaky.first { $0.test == "A/retried" })
            #expect(retried.retriedPasses == 1)
            #expect(retried.strip == "PPPPPPPPPR")
            let flips = try #require(report.flaky.first { $0.test == "A/flips" })
            #expect(flips.failures == 4)
            #expect(report.predicates.map(\.verdict) == [.flaky])
            #expect(report.predicates.first?.evaluations == 10)
            #expect(report.predicates.first?.timeouts == 5)
            let window = try ledger.database.flakyReport(
                project: nil, runs: 3, since: nil, thresholds: FlakyThresholds(), now: 10_000)
            #expect(window.runs == 3)
            #expect(window.flaky.first { $0.test == "A/retried" }?.runs == 3)
        }
    }
}
