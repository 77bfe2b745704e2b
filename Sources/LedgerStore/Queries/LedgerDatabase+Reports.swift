import Foundation
import GRDB
import LedgerCore

extension LedgerDatabase {
    /// The pyramid of one run (the newest by default), or of every test seen since a time.
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - run: a run id (of `project`, when one is given); wins over `since`.
    ///   - since: seconds since 1970; each test counts once, by its newest run.
    ///   - classifier: decides the layer of each test.
    /// - Returns: the report; its ``PyramidReport/run`` is set when it covers a single run.
    /// - Throws: ``StoreError/noSuchRun(_:)`` when nothing matches; any SQLite error.
    public func pyramidReport(
        project: String?, run: String?, since: Double?, classifier: LayerClassifier
    ) throws -> PyramidReport {
        let runs: [WindowRun]
        if let run {
            guard let found = try windowRun(id: run, project: project) else { throw StoreError.noSuchRun(run) }
            runs = [found]
        } else if let project = try project ?? latestProject() {
            runs = try windowRuns(project: project, count: since == nil ? 1 : nil, since: since)
        } else {
            runs = []
        }
        guard !runs.isEmpty else { throw StoreError.noSuchRun(project.map { "of project \($0)" } ?? "at all") }
        let info = try testInfo(runs: runs)
        var seen = Set<Int64>()
        var samples: [PyramidSample] = []
        for results in try results(of: runs) {
            for test in results.tests where seen.insert(test.testID).inserted {
                guard let about = info[test.testID] else { continue }
                let sample = RunSample(run: results.run.id, at: 0, attempts: test.attempts)
                samples.append(
                    PyramidSample(
                        layer: classifier.layer(explicit: about.declaredLayer, id: about.key, file: about.file),
                        seconds: test.seconds, failed: sample.final.isFailure, flaky: sample.flakyInRun))
            }
        }
        return PyramidAnalysis.report(run: runs.count == 1 ? runs[0].id : nil, runs: runs.count, samples: samples)
    }

    /// Flaky, broken and recovered tests and judged predicates over a window of runs.
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - runs: how many of the newest runs make the window.
    ///   - since: seconds since 1970; only runs started since then.
    ///   - now: the time "recovered" is measured against, in seconds since 1970.
    ///   - thresholds: the thresholds of every verdict.
    /// - Returns: the report; an empty one when there is no project or no run.
    /// - Throws: any SQLite error.
    public func flakyReport(
        project: String?, runs count: Int, since: Double?, thresholds: FlakyThresholds, now: Double
    ) throws -> FlakyReport {
        guard let project = try project ?? latestProject() else {
            return FlakinessAnalysis.report(histories: [], health: [], predicates: [], now: now)
        }
        let runs = try windowRuns(project: project, count: count, since: since)
        let info = try testInfo(runs: runs)
        let allResults = try results(of: runs.reversed())
        struct HistoryKey: Hashable {
            var test: Int64
            var configuration: String
        }
        var histories: [HistoryKey: TestHistory] = [:]
        for results in allResults {
            let run = results.run
            for test in results.tests {
                let key = HistoryKey(test: test.testID, configuration: run.configuration)
                let sample = RunSample(run: run.id, at: run.startedAt, revision: run.revision, attempts: test.attempts)
                if histories[key] == nil {
                    histories[key] = TestHistory(
                        test: info[test.testID]?.key ?? "#\(test.testID)", configuration: run.configuration, samples: []
                    )
                }
                histories[key]?.samples.append(sample)
            }
        }
        return FlakinessAnalysis.report(
            histories: Array(histories.values), health: allResults.map(\.health).reversed(),
            predicates: try predicateSites(runs: runs), now: now, thresholds: thresholds)
    }
}
