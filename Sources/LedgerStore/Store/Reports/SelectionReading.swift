import LedgerCore

extension StoreReader {
    /// The newest run of `branches` that vouches for each test target's hash: it stored the
    /// target with that hash, ran every test the runner listed for it and passed them all, ended,
    /// and was not interrupted; a verification run never vouches.
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
            ORDER BY r.startedAt DESC, r.id DESC
            """, [.text(project)] + wanted.map { .text($0) } + branches.map { .text($0) })
        var vouches: [String: Vouch] = [:]
        for row in rows {
            let target = try row.required(row.string, "target")
            guard vouches[target] == nil, hashes[target] == (try row.string("hash")) else { continue }
            vouches[target] = Vouch(
                run: try row.required(row.string, "uuid"), revision: try row.string("revision"),
                at: try row.required(row.double, "startedAt"))
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
            vouchedBy: try vouchers.map {
                Vouch(
                    run: try $0.required($0.string, "uuid"), revision: try $0.string("revision"),
                    at: try $0.required($0.double, "startedAt"))
            })
    }
}

extension ResultStore {
    /// The newest run of `branches` that vouches for each test target's hash: see
    /// ``StoreReader/vouches(project:hashes:branches:)``.
    /// - Throws: what the database throws.
    public func vouches(project: String, hashes: [String: String], branches: [String]) throws -> [String: Vouch] {
        try reading { try $0.reader.storeReader.vouches(project: project, hashes: hashes, branches: branches) }
    }
}
