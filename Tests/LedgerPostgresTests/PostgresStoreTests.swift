import Foundation
import LedgerCore
import LedgerStore
import LedgerTestSupport
import PostgresNIO
import Testing

@testable import LedgerPostgres

/// A ledger in a schema of its own on the test server.
struct TemporaryPostgres {
    let url: String
    let ledger: PostgresLedger

    init(maximumConnections: Int = 4) throws {
        url = try #require(TestPostgres.freshURL())
        ledger = try PostgresLedger(location: PostgresLocation(url: url), maximumConnections: maximumConnections)
    }

    func remove() { TestPostgres.drop(url) }

    func count(_ sql: String) throws -> Int {
        try ledger.withConnection { try $0.value(PostgresQuery(unsafeSQL: sql), as: Int.self) ?? -1 }
    }
}

/// A run id made from a number.
func runID(_ number: Int) -> String {
    String(format: "00000000-0000-4000-8000-%012d", number)
}

/// Event-stream lines for one run of `tests` tests, every seventh failing.
func runLines(_ run: String, project: String = "Shop", tests: Range<Int>, end: Bool = true) -> [String] {
    var lines = [
        #"{"v":1,"type":"run.start","run":"\#(run)","at":1790000000,"project":"\#(project)","source":"xctest"}"#
    ]
    for index in tests {
        lines.append(
            #"{"v":1,"type":"test.end","run":"\#(run)","at":\#(1_790_000_001 + index),"test":"T/test\#(index)","#
                + #""attempt":1,"outcome":"\#(index % 7 == 0 ? "failed" : "passed")","duration":0.5}"#)
    }
    if end { lines.append(#"{"v":1,"type":"run.end","run":"\#(run)","at":1790009999}"#) }
    return lines
}

extension ResultStore {
    /// Ingests event-stream lines.
    @discardableResult
    func ingest(lines: [String]) throws -> IngestSummary {
        try ingest { sink in
            var decoder = EventStreamDecoder(source: "test")
            for (index, line) in lines.enumerated() {
                if let record = try decoder.decode(line: Data(line.utf8), number: index + 1) {
                    try sink.consume(record)
                }
            }
        }
    }
}

@Suite(.enabled(if: TestPostgres.available, "needs TESTLEDGER_TEST_DATABASE_URL (a PostgreSQL server)"))
struct PostgresStoreTests {
    @Test func aFreshSchemaIsMigratedWithEveryMigrationOnce() async throws {
        try await onOwnThread {
            let store = try TemporaryPostgres()
            defer { store.remove() }
            #expect(try store.count("SELECT count(*) FROM ledger_migrations") == EmbeddedMigrations.all.count)
            #expect(EmbeddedMigrations.all.map(\.identifier).first == "001_initial")
            // Opening again migrates nothing.
            _ = try PostgresLedger(location: PostgresLocation(url: store.url))
            #expect(try store.count("SELECT count(*) FROM ledger_migrations") == EmbeddedMigrations.all.count)
            // The quarantine log is append-only here too.
            try store.ledger.quarantine([
                QuarantinedTest(project: "Shop", test: "T/a", mode: .mute, reason: "flaky", by: "ci", since: 1)
            ])
            #expect(throws: StoreError.self) {
                try store.ledger.withConnection { try $0.run("DELETE FROM quarantine_log") }
            }
        }
    }

    @Test func manyProcessesOpeningOneNewSchemaAtOnceAllSucceed() async throws {
        let url = try #require(TestPostgres.freshURL())
        defer { TestPostgres.drop(url) }
        let opened = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await onOwnThread { _ = try PostgresLedger(location: PostgresLocation(url: url)) }
                    return true
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(opened == 8)
        let migrations = try await onOwnThread {
            try TemporaryPostgres.opening(url).count("SELECT count(*) FROM ledger_migrations")
        }
        #expect(migrations == EmbeddedMigrations.all.count)
    }

    @Test func aSchemaFromANewerTestLedgerIsRefusedUntouched() async throws {
        try await onOwnThread {
            let store = try TemporaryPostgres()
            defer { store.remove() }
            try store.ledger.withConnection { try $0.run("INSERT INTO ledger_migrations VALUES ('999_future')") }
            #expect {
                try PostgresLedger(location: PostgresLocation(url: store.url))
            } throws: { error in
                "\(error)".contains("newer TestLedger (schema 999_future)") && !"\(error)".contains("@127.0.0.1:0")
            }
            #expect(try store.count("SELECT count(*) FROM ledger_migrations") == EmbeddedMigrations.all.count + 1)
        }
    }

    @Test func anUnreachableServerIsNamedWithTheFix() async throws {
        try await onOwnThread {
            #expect {
                try PostgresLedger(location: PostgresLocation(url: "postgres://ci:secret@127.0.0.1:9/ledger"))
            } throws: { error in
                let text = "\(error)"
                return text.hasPrefix("postgres://ci@127.0.0.1:9/ledger: cannot connect") && !text.contains("secret")
                    && text.contains("Check that the server runs")
            }
        }
    }

    @Test func concurrentIngestsIntoOneRunLoseAndDoubleNothing() async throws {
        let store = try await onOwnThread { try TemporaryPostgres(maximumConnections: 8) }
        defer { store.remove() }
        let ledger = store.ledger
        // 8 writers, each sending its own 50 tests of one run, every one of them twice.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<16 {
                group.addTask {
                    let part = writer % 8
                    try await onOwnThread {
                        try ledger.ingest(
                            lines: runLines(runID(1), tests: (part * 50)..<(part * 50 + 50), end: false))
                    }
                }
            }
            try await group.waitForAll()
        }
        try await onOwnThread {
            #expect(try store.count("SELECT count(*) FROM result") == 400)
            #expect(try store.count("SELECT count(*) FROM test") == 400)
            let run = try #require(try ledger.run(id: runID(1)))
            #expect(run.tests == 400)
            #expect(try ledger.project(ofRun: runID(1)) == run.project)
            #expect(try ledger.project(ofRun: "no-such-run") == nil)
            #expect(run.failed == (0..<400).filter { $0 % 7 == 0 }.count)
            // The summary the reports read agrees with the results.
            let pyramid = try ledger.pyramidReport(
                project: "Shop", run: runID(1), since: nil, classifier: LayerClassifier())
            #expect(pyramid.layers.map(\.tests).reduce(0, +) == 400)
        }
    }

    @Test func liveBatchesCompleteRunningAttemptsAcrossIngests() async throws {
        try await onOwnThread {
            let store = try TemporaryPostgres()
            defer { store.remove() }
            let start =
                #"{"v":1,"type":"run.start","run":"\#(runID(9))","at":1790000000,"project":"Shop","source":"xctest"}"#
            let testStart =
                #"{"v":1,"type":"test.start","run":"\#(runID(9))","at":1790000001,"test":"T/a","attempt":1}"#
            try store.ledger.ingest(keepRunning: true) { sink in
                var decoder = EventStreamDecoder(source: "test")
                for (index, line) in [start, testStart].enumerated() {
                    if let record = try decoder.decode(line: Data(line.utf8), number: index + 1) {
                        try sink.consume(record)
                    }
                }
            }
            #expect(try store.count("SELECT count(*) FROM result WHERE outcome IS NULL") == 1)
            let completed = try store.ledger.ingest(lines: [
                #"{"v":1,"type":"test.end","run":"\#(runID(9))","at":1790000002,"test":"T/a","attempt":1,"outcome":"passed","duration":1}"#
            ])
            #expect(completed.results == 1)
            #expect(try store.count("SELECT count(*) FROM result WHERE outcome = 'passed'") == 1)
            #expect(try store.ledger.run(id: runID(9))?.passed == 1)
        }
    }

    @Test func textWithTabsBackslashesAndNewlinesIsCopiedExactly() async throws {
        try await onOwnThread {
            let store = try TemporaryPostgres()
            defer { store.remove() }
            let message = #"expected\t\"a\\b\"\nline 2\r\\N — café"#
            try store.ledger.ingest(lines: [
                #"{"v":1,"type":"run.start","run":"\#(runID(4))","at":1790000000,"project":"Shop","source":"xctest"}"#,
                #"{"v":1,"type":"test.end","run":"\#(runID(4))","at":1790000001,"test":"T/tab\tname","attempt":1,"#
                    + #""outcome":"failed","duration":0.5,"message":"\#(message)"}"#,
                #"{"v":1,"type":"run.end","run":"\#(runID(4))","at":1790000002}"#,
            ])
            let detail = try store.ledger.testDetail(test: "T/tab\tname", run: runID(4))
            #expect(detail.outcome == AttemptState(.failed))
            let stored = try store.ledger.withConnection { try $0.value("SELECT message FROM result", as: String.self) }
            #expect(stored == "expected\t\"a\\b\"\nline 2\r\\N — café")
        }
    }

    @Test func aNULCharacterIsRefusedNamingTheFixAndNothingIsStored() async throws {
        try await onOwnThread {
            let store = try TemporaryPostgres()
            defer { store.remove() }
            #expect {
                try store.ledger.ingest(
                    lines: runLines(runID(5), tests: 0..<3) + [
                        #"{"v":1,"type":"test.end","run":"\#(runID(5))","at":1790000009,"test":"T/nul","attempt":1,"#
                            + #""outcome":"failed","duration":0.5,"message":"a\u0000b"}"#
                    ])
            } throws: { error in
                guard case StoreError.unstorable = error else { return false }
                return "\(error)".contains("0x00") && "\(error)".contains("nothing of it was stored")
            }
            #expect(try store.count("SELECT count(*) FROM result") == 0)
            #expect(try store.count("SELECT count(*) FROM run") == 0)
        }
    }

    @Test func aNULInAnAttemptsDetailsIsRefusedAndNothingIsStored() async throws {
        try await onOwnThread {
            let store = try TemporaryPostgres()
            defer { store.remove() }
            let run = runID(6)
            #expect {
                try store.ledger.ingest(
                    lines: runLines(run, tests: 0..<300, end: false) + [
                        #"{"v":1,"type":"issue","run":"\#(run)","at":1790000009,"test":"T/nul","attempt":1,"message":"a\u0000b"}"#,
                        #"{"v":1,"type":"test.end","run":"\#(run)","at":1790000010,"test":"T/nul","attempt":1,"#
                            + #""outcome":"failed","duration":0.5}"#,
                        #"{"v":1,"type":"run.end","run":"\#(run)","at":1790009999}"#,
                    ])
            } throws: { error in
                guard case StoreError.unstorable = error else { return false }
                return "\(error)".contains("0x00")
            }
            #expect(try store.count("SELECT count(*) FROM result") == 0)
            #expect(try store.count("SELECT count(*) FROM issue") == 0)
            #expect(try store.count("SELECT count(*) FROM run") == 0)
        }
    }

    @Test func pruningKeepsQuarantinedHistoryInBatches() async throws {
        try await onOwnThread {
            let store = try TemporaryPostgres()
            defer { store.remove() }
            for run in 0..<3 {
                try store.ledger.ingest(lines: runLines(runID(run), tests: 0..<20))
            }
            try store.ledger.quarantine([
                QuarantinedTest(project: "Shop", test: "T/test3", mode: .mute, reason: "flaky", by: "ci", since: 1)
            ])
            var steps: [Int] = []
            let summary = try store.ledger.prune(before: 1_790_000_001, project: "Shop", batch: 7) { done, _ in
                steps.append(done)
            }
            #expect(summary.results == 57)
            #expect(summary.keptRuns == 3 && summary.runs == 0)
            #expect(steps == [1, 2, 3])
            #expect(try store.count("SELECT count(*) FROM result") == 3)
            #expect(try store.ledger.run(id: runID(0))?.tests == 1)
        }
    }
}

extension TemporaryPostgres {
    /// The ledger at `url`, already created.
    static func opening(_ url: String) throws -> TemporaryPostgres {
        try TemporaryPostgres(url: url)
    }

    private init(url: String) throws {
        self.url = url
        ledger = try PostgresLedger(location: PostgresLocation(url: url))
    }
}
