import Foundation
import LedgerCore
import LedgerStore
import PostgresNIO

extension PostgresLedger: ResultStore {
    public var locationDescription: String { location.redacted }

    @discardableResult
    public func ingest(keepRunning: Bool = false, _ produce: (inout StoreSink) throws -> Void) throws
        -> IngestSummary
    {
        let (summary, learned) = try transaction { session in
            var sink = StoreSink(
                writes: PostgresWrites(session: session, testsClient: testsClient), knownTests: knownTests)
            try produce(&sink)
            try sink.finish(running: keepRunning)
            return (sink.summary, sink.learnedTests)
        }
        knownTests.merge(learned)
        return summary
    }

    @discardableResult
    public func storeOwnership(_ ownership: Ownership, project: String, at time: Double) throws -> Bool {
        let document = String(decoding: try LedgerDatabase.ownershipEncoder.encode(ownership), as: UTF8.self)
        return try transaction { session in
            try !session.rows(
                """
                INSERT INTO ownership AS o (project, document, updatedAt) VALUES (\(project), \(document), \(time))
                ON CONFLICT (project) DO UPDATE SET document = excluded.document, updatedAt = excluded.updatedAt
                WHERE o.document IS DISTINCT FROM excluded.document
                RETURNING 1
                """
            ).isEmpty
        }
    }

    public func ownership(project: String) throws -> Ownership? {
        try withConnection { session in
            try session.value("SELECT document FROM ownership WHERE project = \(project)", as: String.self)
        }.flatMap { try? JSONDecoder().decode(Ownership.self, from: Data($0.utf8)) }
    }

    public func testOwners(project: String, ownership: Ownership? = nil) throws -> TestOwners {
        guard let ownership = try ownership ?? self.ownership(project: project), !ownership.isEmpty else {
            return .none
        }
        let files = try withConnection { session in
            try session.rows("SELECT key, file FROM test WHERE project = \(project) AND file IS NOT NULL").map {
                try $0.decode((String, String).self)
            }
        }
        return TestOwners(ownership, files: Dictionary(files, uniquingKeysWith: { first, _ in first }))
    }

    // MARK: Runs

    public func runs(project: String? = nil, limit: Int = 20) throws -> [RunListing] {
        try runs(project: project, id: nil, limit: limit)
    }

    public func run(id: String) throws -> RunListing? {
        try runs(project: nil, id: id, limit: 1).first
    }

    public func project(ofRun id: String) throws -> String? {
        try withConnection { session in
            try session.value("SELECT project FROM run WHERE uuid = \(id)", as: String.self)
        }
    }

    private func runs(project: String?, id: String?, limit: Int) throws -> [RunListing] {
        let limit: Int? = limit < 0 ? nil : limit
        return try withConnection { session in
            try session.rows(
                """
                WITH chosen AS (
                    SELECT * FROM run
                    WHERE (\(project)::text IS NULL OR project = \(project)) AND (\(id)::text IS NULL OR uuid = \(id))
                    ORDER BY startedAt DESC, id DESC LIMIT \(limit)),
                final AS (
                    SELECT r.runId, r.testId,
                        (array_agg(r.outcome ORDER BY r.attempt DESC))[1] AS outcome,
                        sum(coalesce(r.duration, 0)) AS seconds,
                        bool_or(r.outcome IN ('failed', 'error', 'crashed')) AS anyFailure,
                        bool_or(r.muted <> 0) AS muted
                    FROM result r JOIN chosen ON chosen.id = r.runId
                    GROUP BY r.runId, r.testId)
                SELECT chosen.uuid, chosen.project, chosen.source, chosen.startedAt, chosen.endedAt, chosen.outcome,
                    chosen.revision, chosen.branch, chosen.ciBuild, chosen.configuration,
                    count(final.testId),
                    count(*) FILTER (WHERE final.outcome IN ('passed', 'expectedFailure')),
                    count(*) FILTER (WHERE final.outcome IN ('failed', 'error')),
                    count(*) FILTER (WHERE final.outcome = 'skipped'),
                    count(*) FILTER (WHERE final.testId IS NOT NULL
                        AND (final.outcome = 'crashed' OR final.outcome IS NULL)),
                    count(*) FILTER (WHERE final.anyFailure AND final.outcome IN ('passed', 'expectedFailure')),
                    count(*) FILTER (WHERE final.muted
                        AND coalesce(final.outcome IN ('failed', 'error', 'crashed'), TRUE)),
                    coalesce(sum(final.seconds), 0)::float8,
                    chosen.reportedTests, chosen.reportedFailures, chosen.reportedErrors, chosen.kind, chosen.labels
                FROM chosen LEFT JOIN final ON final.runId = chosen.id
                GROUP BY chosen.id, chosen.uuid, chosen.project, chosen.source, chosen.startedAt, chosen.endedAt,
                    chosen.outcome, chosen.revision, chosen.branch, chosen.ciBuild, chosen.configuration,
                    chosen.reportedTests, chosen.reportedFailures, chosen.reportedErrors, chosen.kind, chosen.labels
                ORDER BY chosen.startedAt DESC, chosen.id DESC
                """
            ).map { row in
                let columns = row.makeRandomAccess()
                func column<Value: PostgresDecodable>(_ index: Int, _: Value.Type = Value.self) throws -> Value {
                    try columns[index].decode(Value.self)
                }
                let reportedTests: Int? = try column(18)
                return RunListing(
                    id: try column(0), project: try column(1), source: try column(2), started: try column(3),
                    ended: try column(4), runOutcome: try column(5), revision: try column(6), branch: try column(7),
                    build: try column(8), configuration: try column(9),
                    counts: (
                        tests: try column(10), passed: try column(11), failed: try column(12),
                        skipped: try column(13), crashed: try column(14), flaky: try column(15), muted: try column(16)
                    ),
                    seconds: try column(17),
                    reported: try reportedTests.map {
                        LedgerEvent.RunnerCounts(
                            tests: $0, failures: try column(19, Int?.self) ?? 0, errors: try column(20, Int?.self) ?? 0)
                    }, kind: try column(21, String?.self).flatMap(RunKind.init(rawValue:)),
                    labels: try column(22, String?.self))
            }
        }
    }

    public func projects() throws -> [ProjectListing] {
        try withConnection { session in
            try session.rows(
                """
                SELECT project, count(*), max(startedAt) FROM run WHERE kind IS NULL GROUP BY project
                ORDER BY max(startedAt) DESC, project COLLATE "C"
                """
            ).map { row in
                let (project, runs, latest) = try row.decode((String, Int, Double).self)
                return ProjectListing(project: project, runs: runs, latestRun: iso8601(latest))
            }
        }
    }

    public func testIDs(project: String) throws -> [String] {
        try withConnection { session in
            try session.rows("SELECT key FROM test WHERE project = \(project) ORDER BY key COLLATE \"C\"").map {
                try $0.decode(String.self)
            }
        }
    }

    public func failingTests(run: String) throws -> [String] {
        try withConnection { session in
            guard let row = try session.value("SELECT id FROM run WHERE uuid = \(run)", as: Int64.self) else {
                return []
            }
            return try Self.finalResults(run: row, in: session).filter(\.outcome.isFailure).map(\.test)
        }
    }

    public func markMuted(run: String, tests: [String]) throws {
        guard !tests.isEmpty else { return }
        try withConnection { session in
            try session.run(
                """
                UPDATE result SET muted = 1
                WHERE runId = (SELECT id FROM run WHERE uuid = \(run))
                    AND testId IN (
                        SELECT test.id FROM test JOIN run ON run.uuid = \(run) AND test.project = run.project
                        WHERE test.key = ANY(\(tests)))
                """)
        }
    }
}
