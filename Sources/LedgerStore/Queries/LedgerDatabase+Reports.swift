import Foundation
import GRDB
import LedgerCore

extension LedgerDatabase {
    /// The pyramid of one run (the newest by default), or of every test seen since a time.
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - run: a run id; wins over `since`.
    ///   - since: seconds since 1970; each test counts once, by its newest run.
    /// - Throws: ``StoreError/noSuchRun(_:)`` when nothing matches.
    public func pyramidReport(
        project: String?, run: String?, since: Double?, classifier: LayerClassifier
    ) throws -> PyramidReport {
        let runs: [String]
        if let run {
            runs = [run]
        } else if let since {
            let project = try project ?? latestProject() ?? ""
            runs = try windowRuns(project: project, count: nil, since: since).map(\.run)
        } else if let latest = try latestRunID(project: project) {
            runs = [latest]
        } else {
            throw StoreError.noSuchRun(project.map { "of project \($0)" } ?? "at all")
        }
        let records = try testRecords(runs: runs)
        if let run, records.isEmpty, try self.runs(limit: .max).allSatisfy({ $0.id != run }) {
            throw StoreError.noSuchRun(run)
        }
        let order = Dictionary(uniqueKeysWithValues: runs.enumerated().map { ($1, $0) })
        var newest: [String: TestRunRecord] = [:]
        for record in records {
            let key = record.test + "\u{0}" + record.configuration
            if let kept = newest[key], (order[kept.run] ?? 0) <= (order[record.run] ?? 0) { continue }
            newest[key] = record
        }
        let samples = newest.values.map { record in
            let attempts = RunSample(run: record.run, at: 0, attempts: record.attempts)
            return PyramidSample(
                layer: classifier.layer(explicit: record.declaredLayer, id: record.test, file: record.file),
                seconds: record.seconds, failed: attempts.final.isFailure, flaky: attempts.flakyInRun)
        }
        return PyramidAnalysis.report(run: runs.count == 1 ? runs[0] : nil, runs: runs.count, samples: samples)
    }

    /// Flaky, broken and recovered tests and judged predicates over a window of runs.
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - runs: how many of the newest runs make the window.
    ///   - since: seconds since 1970; only runs started since then.
    ///   - now: the time "recovered" is measured against.
    public func flakyReport(
        project: String?, runs count: Int, since: Double?, thresholds: FlakyThresholds, now: Double
    ) throws -> FlakyReport {
        guard let project = try project ?? latestProject() else {
            return FlakinessAnalysis.report(histories: [], health: [], predicates: [], now: now)
        }
        let health = try windowRuns(project: project, count: count, since: since)
        let runs = health.map(\.run)
        let at = Dictionary(uniqueKeysWithValues: health.map { ($0.run, $0.at) })
        let revisions = try runRevisions(runs)
        var histories: [String: TestHistory] = [:]
        for record in try testRecords(runs: runs) {
            let key = record.test + "\u{0}" + record.configuration
            let sample = RunSample(
                run: record.run, at: at[record.run] ?? 0, revision: revisions[record.run] ?? nil,
                attempts: record.attempts)
            histories[key, default: TestHistory(test: record.test, configuration: record.configuration, samples: [])]
                .samples.append(sample)
        }
        let ordered = histories.values.map { history in
            var history = history
            history.samples.sort { $0.at < $1.at }
            return history
        }
        var sites = try predicateSites(runs: runs)
        for index in sites.indices {
            for evaluation in sites[index].evaluations.indices {
                sites[index].evaluations[evaluation].revision =
                    revisions[sites[index].evaluations[evaluation].run] ?? nil
            }
        }
        return FlakinessAnalysis.report(
            histories: ordered, health: health, predicates: sites, now: now, thresholds: thresholds)
    }

    private func runRevisions(_ runs: [String]) throws -> [String: String?] {
        try writer.read { db in
            var revisions: [String: String?] = [:]
            let rows = try Row.fetchAll(
                db, sql: "SELECT run.id, run.revision FROM json_each(?) c JOIN run ON run.id = c.value",
                arguments: [Self.jsonArray(runs)])
            for row in rows { revisions[row[0]] = row[1] as String? }
            return revisions
        }
    }
}
