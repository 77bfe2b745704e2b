import Foundation
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

/// `report run` on a generated history: runs on `main`, then a run of a feature branch.
@Suite struct RunReportQueryTests {
    static let day = 86_400.0

    /// One run on `branch` in which the tests of `failing` fail and the others of `tests` pass.
    func send(
        _ ledger: TemporaryStore, _ index: Int, branch: String, failing: Set<String>, tests: [String]
    ) throws -> String {
        let id = String(format: "00000000-0000-4000-8000-%012x", index)
        var script = RunScript(run: id, at: 1_700_000_000 + Double(index) * Self.day).with(
            .runStart(
                .init(at: 1_700_000_000 + Double(index) * Self.day, project: "Demo", source: "xctest", branch: branch)))
        for test in tests { script = failing.contains(test) ? script.fail(test) : script.pass(test) }
        try ledger.ingest(script.end().records)
        return id
    }

    @Test(arguments: StoreKind.available) func everyAttemptOfARunInTestAndAttemptOrder(kind: StoreKind) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            let script = RunScript(project: "Demo").start()
                .result("B/flaky", .failed, attempt: 1, duration: 0.25).result("B/flaky", .passed, attempt: 2)
                .pass("A/ok").with(.testStart(.init(at: 5, test: "C/hung", suite: "C", name: "hung", line: 3)))
                .end()
            try ledger.ingest(script.records)
            let attempts = try ledger.database.attempts(run: script.run)
            #expect(attempts.map { "\($0.test)#\($0.attempt)" } == ["A/ok#1", "B/flaky#1", "B/flaky#2", "C/hung#1"])
            // The run ended with the attempt open: it is stored as crashed.
            #expect(attempts.map(\.outcome) == [.passed, .failed, .passed, .crashed])
            #expect(attempts[1].duration == 0.25 && attempts[1].message == "failed")
            #expect(attempts[3].suite == "C" && attempts[3].name == "hung" && attempts[3].line == 3)
            #expect(throws: StoreError.self) { try ledger.database.attempts(run: "no-such-run") }
        }
    }

    @Test(arguments: StoreKind.available) func eachFailureIsPlacedAtItsIssueElseItsDeclaration(kind: StoreKind)
        async throws
    {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            func failing(_ test: String, declared: Int?, issue: (file: String, line: Int)?) -> [LedgerEvent] {
                [
                    .testStart(
                        .init(at: 1, test: test, file: declared.map { _ in "Tests/Declared.swift" }, line: declared)),
                    .issue(.init(at: 1, test: test, message: "x", file: nil, line: nil)),
                    .issue(.init(at: 1, test: test, message: "y", file: issue?.file, line: issue?.line)),
                    .testEnd(.init(at: 2, test: test, outcome: .failed, duration: 1)),
                ]
            }
            var script = RunScript(project: "Demo").start()
            for event in failing("A/issued", declared: 3, issue: ("/Users/ci/Demo/Tests/Where.swift", 42))
                + failing("A/declared", declared: 7, issue: nil) + failing("A/nowhere", declared: nil, issue: nil)
            {
                script = script.with(event)
            }
            try ledger.ingest(script.end().records)
            let report = try ledger.database.runReport(
                run: nil, project: "Demo", base: "main", window: 30, thresholds: FlakyThresholds(), now: 1_800_000_000)
            let places = Dictionary(
                uniqueKeysWithValues: report.failures.map { ($0.test, "\($0.file ?? "-"):\($0.line ?? 0)") })
            #expect(
                places == [
                    "A/issued": "/Users/ci/Demo/Tests/Where.swift:42", "A/declared": "Tests/Declared.swift:7",
                    "A/nowhere": "-:0",
                ])
        }
    }

    @Test(arguments: StoreKind.available) func everyClassOnAGeneratedHistory(kind: StoreKind) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            let stable = (0..<20).map { "S/stable\($0)" }
            let tests = stable + ["A/new", "A/before", "A/onBase", "A/flaky", "A/quarantined", "A/fixed"]
            // main: A/flaky fails every other run, A/before in the first (one flip: not flaky), A/onBase and
            // A/fixed in the newest.
            for index in 0..<8 {
                var failing: Set<String> = index % 2 == 0 ? ["A/flaky"] : []
                if index == 0 { failing.insert("A/before") }
                if index == 7 { failing.formUnion(["A/onBase", "A/fixed"]) }
                _ = try send(ledger, index, branch: "main", failing: failing, tests: tests)
            }
            try ledger.database.quarantine([
                QuarantinedTest(
                    project: "Demo", test: "A/quarantined", mode: .mute, reason: "flaky", by: "ana", since: 0)
            ])
            let feature = try send(
                ledger, 8, branch: "feature",
                failing: ["A/new", "A/before", "A/onBase", "A/flaky", "A/quarantined"], tests: tests)
            let report = try ledger.database.runReport(
                run: nil, project: "Demo", base: "main", window: 30, thresholds: FlakyThresholds(), now: 1_800_000_000)
            #expect(report.run == feature && report.branch == "feature" && report.tests == tests.count)
            let verdicts = Dictionary(uniqueKeysWithValues: report.failures.map { ($0.test, $0.verdict) })
            #expect(
                verdicts == [
                    "A/new": .new, "A/before": .failedBefore, "A/onBase": .failingOnBase, "A/flaky": .knownFlaky,
                    "A/quarantined": .quarantined,
                ])
            #expect(report.fixed == ["A/fixed"])
            #expect(report.groups.map(\.tests) == [["A/before", "A/flaky", "A/new", "A/onBase", "A/quarantined"]])
            #expect(report.baseRun == String(format: "00000000-0000-4000-8000-%012x", 7))
            #expect(report.failures.first { $0.test == "A/new" }?.message == "failed", "the issue's message")

            // The newest main run judged against the main runs before it: A/onBase is new there.
            let onMain = try ledger.database.runReport(
                run: report.baseRun, project: nil, base: "main", window: 30, thresholds: FlakyThresholds(),
                now: 1_800_000_000)
            #expect(onMain.failures.first { $0.test == "A/onBase" }?.verdict == .new)
            #expect(onMain.failures.first { $0.test == "A/fixed" }?.verdict == .new)
            #expect(throws: StoreError.noSuchRun("nope")) {
                try ledger.database.runReport(
                    run: "nope", project: nil, base: "main", window: 30, thresholds: FlakyThresholds(), now: 0)
            }
        }
    }
}
