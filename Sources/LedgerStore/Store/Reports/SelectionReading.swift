import LedgerCore

extension StoreReader {
    /// The newest run of `branches` that vouches for each test target's hash: it stored the
    /// target with that hash, ran every test the runner listed for it and passed them all, ended,
    /// and was not cut short (interrupted, or a test process that crashed or was killed); a
    /// verification run never vouches.
    ///
    /// - Parameters:
    ///   - project: the project.
    ///   - hashes: each test target's hash, by name.
    ///   - branches: the branches whose runs may vouch (the base and this branch).
    /// - Returns: the vouching run of each target that has one, by name.
    /// - Throws: what the database throws.
    package func vouches(project: String, hashes: [String: String], branches: [String]) throws -> [String: Vouch] {
        let wanted = Array(Set(hashes.values)).sorted()
        guard !wanted.isEmpty, !branches.isEmpty else { return [:] }
        var number = 1
        func next() -> String {
            number += 1
            return dialect.parameter(number)
        }
        let hashList = wanted.map { _ in next() }.joined(separator: ", ")
        let branchList = branches.map { _ in next() }.joined(separator: ", ")
        let rows = try rows(
            """
            SELECT t.target AS target, t.hash AS hash, r.uuid AS uuid, r.revision AS revision, r.startedAt AS startedAt
            FROM target_run t JOIN run r ON r.id = t.runId
            WHERE r.project = \(dialect.parameter(1)) AND t.hash IN (\(hashList)) AND r.branch IN (\(branchList))
              AND t.tests > 0 AND t.passed = t.tests AND r.kind IS NULL AND r.endedAt IS NOT NULL
              AND coalesce(r.outcome, 'finished') <> 'interrupted'
              AND NOT EXISTS (
                SELECT 1 FROM result x WHERE x.runId = r.id AND (x.outcome IS NULL OR x.outcome = 'crashed'))
            ORDER BY r.startedAt DESC, r.id DESC
            """, [.text(project)] + wanted.map { .text($0) } + branches.map { .text($0) })
        var vouches: [String: Vouch] = [:]
        for row in rows {
            let target = try row.required(row.string, "target")
            guard vouches[target] == nil, hashes[target] == (try row.string("hash")) else { continue }
            vouches[target] = try Vouch(row)
        }
        return vouches
    }

    /// What selection left out of the run at `row`: its tests skipped as not affected by the
    /// change, and the runs that vouched for their targets; `nil` when it left nothing out.
    package func notAffected(run row: Int64) throws -> RunReport.NotAffected? {
        let counted = try rows(
            """
            SELECT count(*) AS skipped FROM result
            WHERE runId = \(dialect.parameter(1)) AND outcome = 'skipped' AND message = '\(RunReport.NotAffected.reason)'
            """, [.integer(row)])
        let tests = try counted.first.flatMap { try $0.int("skipped") } ?? 0
        guard tests > 0 else { return nil }
        let vouchers = try rows(
            """
            SELECT DISTINCT v.uuid AS uuid, v.revision AS revision, v.startedAt AS startedAt
            FROM target_run t JOIN run v ON v.uuid = t.vouchedBy
            WHERE t.runId = \(dialect.parameter(1)) AND t.skipped = 1
            ORDER BY v.startedAt DESC, v.uuid
            """, [.integer(row)])
        return RunReport.NotAffected(
            tests: tests,
            vouchedBy: try vouchers.map(Vouch.init))
    }
}

extension StoreReader {
    /// The newest `count` runs of `project` that left test targets out or, observing, would have
    /// (`record --select`), newest first, with their attempts and, for the targets they left out,
    /// what the vouching run's tests of those targets took. A run that only stored its targets'
    /// hashes (a full `record`) is none of them.
    package func selectionRuns(project: String, count: Int) throws -> [SelectionReport.StoredRun] {
        let runs = try rows(
            """
            SELECT r.id AS id, r.uuid AS uuid, r.revision AS revision, r.startedAt AS startedAt FROM run r
            WHERE r.project = \(dialect.parameter(1)) AND r.kind IS NULL
              AND EXISTS (SELECT 1 FROM target_run t WHERE t.runId = r.id AND t.vouchedBy IS NOT NULL)
            ORDER BY r.startedAt DESC, r.id DESC LIMIT \(max(count, 0))
            """, [.text(project)])
        return try runs.map { row in
            let id = try row.required(row.int64, "id")
            let targets = try rows(
                "SELECT target, vouchedBy, skipped FROM target_run WHERE runId = \(dialect.parameter(1)) ORDER BY target",
                [.integer(id)]
            ).map {
                (
                    target: try $0.required($0.string, "target"), vouchedBy: try $0.string("vouchedBy"),
                    skipped: (try $0.int64("skipped") ?? 0) != 0
                )
            }
            var vouchingSeconds: [String: Double] = [:]
            for target in targets where target.skipped {
                guard let vouch = target.vouchedBy else { continue }
                let module = SelectionReport.c99Name(target.target)
                vouchingSeconds[target.target] = try attempts(runUUID: vouch)
                    .filter { TestSelection.module(of: $0.test) == module }.reduce(0) { $0 + $1.seconds }
            }
            return SelectionReport.StoredRun(
                run: try row.required(row.string, "uuid"), revision: try row.string("revision"),
                at: try row.required(row.double, "startedAt"), targets: targets, attempts: try attempts(run: id),
                vouchingSeconds: vouchingSeconds)
        }
    }

    private func attempts(run id: Int64) throws -> [(test: String, outcome: Outcome, seconds: Double)] {
        try attempts(where: "x.runId = \(dialect.parameter(1))", .integer(id))
    }

    package func attempts(runUUID: String) throws -> [(test: String, outcome: Outcome, seconds: Double)] {
        try attempts(where: "x.runId = (SELECT id FROM run WHERE uuid = \(dialect.parameter(1)))", .text(runUUID))
    }

    private func attempts(where condition: String, _ argument: StoreArgument) throws -> [(
        test: String, outcome: Outcome, seconds: Double
    )] {
        try rows(
            """
            SELECT t.key AS key, x.outcome AS outcome, x.duration AS duration
            FROM result x JOIN test t ON t.id = x.testId WHERE \(condition) ORDER BY t.key, x.attempt
            """, [argument]
        ).map {
            (
                test: try $0.required($0.string, "key"),
                outcome: (try $0.string("outcome")).flatMap(Outcome.init(rawValue:)) ?? .crashed,
                seconds: try $0.double("duration") ?? 0
            )
        }
    }
}

extension Vouch {
    /// The run a row names by its `uuid`, `revision` and `startedAt`.
    init(_ row: any NamedColumns) throws {
        self.init(
            run: try row.required(row.string, "uuid"), revision: try row.string("revision"),
            at: try row.required(row.double, "startedAt"))
    }
}

extension ResultStore {
    /// `report selection`: what selection left out of the newest `count` runs that selected or
    /// observed, the failures it would have missed and the time it saved.
    /// - Throws: what the database throws.
    public func selectionReport(project: String, runs count: Int) throws -> SelectionReport {
        SelectionReport(try reading { try $0.reader.storeReader.selectionRuns(project: project, count: count) })
    }

    /// Each attempt of the run `id`: its test, outcome (crashed when it never ended) and seconds,
    /// in attempt order per test.
    /// - Throws: what the database throws.
    public func attemptTimes(run id: String) throws -> [(test: String, outcome: Outcome, seconds: Double)] {
        try reading { try $0.reader.storeReader.attempts(runUUID: id) }
    }
}
