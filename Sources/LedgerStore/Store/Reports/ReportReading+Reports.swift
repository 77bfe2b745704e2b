import Foundation
import LedgerCore

extension ReportReading {
    /// The pyramid of one run (the newest by default), or of every test seen since a time.
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - run: a run id (of `project`, when one is given); wins over `since`.
    ///   - since: seconds since 1970; each test counts once, by its newest run.
    ///   - classifier: decides the layer of each test.
    /// - Returns: the report; its ``PyramidReport/run`` is set when it covers a single run.
    /// - Throws: ``StoreError/noSuchRun(_:)`` when nothing matches; any database error.
    package func pyramidReport(
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
        guard let newest = runs.first else {
            throw StoreError.noSuchRun(project.map { "of project \($0)" } ?? "at all")
        }
        let info = try testInfo(project: newest.project)
        var seen = Set<Int64>(minimumCapacity: info.count)
        var samples: [PyramidSample] = []
        // Each test counts once, by its newest run: once every test is seen, older runs add nothing.
        try forEachSummary(of: runs, seconds: true) { _, summary in
            let entries = summary.entries
            for index in 0..<entries.count where seen.insert(entries.testID(index)).inserted {
                guard let about = info[entries.testID(index)] else { continue }
                let code = entries.code(index)
                samples.append(
                    PyramidSample(
                        layer: classifier.layer(explicit: about.declaredLayer, id: about.key, file: about.file),
                        seconds: summary.seconds(index), failed: code.final.isFailure,
                        flaky: code.final.isPass && code.anyFailed))
            }
            return seen.count < info.count
        }
        return PyramidAnalysis.report(run: runs.count == 1 ? newest.id : nil, runs: runs.count, samples: samples)
    }

    /// Flaky, broken and recovered tests and judged predicates over a window of runs.
    /// - Parameters:
    ///   - project: the project; the newest run's when `nil`.
    ///   - count: how many of the newest runs make the window.
    ///   - since: seconds since 1970; only runs started since then.
    ///   - thresholds: the thresholds of every verdict.
    ///   - now: the time "recovered" is measured against, in seconds since 1970.
    ///   - before: when given, only the runs before this one make the window: what was known of the
    ///     tests before it ran.
    /// - Returns: the report; an empty one when there is no project or no run.
    /// - Throws: any database error.
    package func flakyReport(
        project: String?, runs count: Int, since: Double?, thresholds: FlakyThresholds, now: Double,
        before: WindowRun? = nil
    ) throws -> FlakyReport {
        guard let project = try project ?? latestProject() else {
            return FlakinessAnalysis.report(histories: [], health: [], predicates: [], now: now)
        }
        var runs = try windowRuns(project: project, count: before == nil ? count : nil, since: since)
        if let before {
            // The window's runs are newest first, by start and then by row.
            runs = Array(
                runs.drop { ($0.startedAt, $0.row) >= (before.startedAt, before.row) }.prefix(count))
        }
        var health: [RunHealth] = []
        var histories: [TestHistory] = []
        do {
            // Only a test that failed an attempt outside the noise can be anything but stable; the
            // others' runs are passed over without being looked at again.
            var noise = Set<Int64>()
            var candidates = Set<Int64>()
            try forEachSummary(of: runs, seconds: false) { run, summary in
                let runHealth = RunHealth(run: run.id, at: run.startedAt, tests: summary.tests, failed: summary.failed)
                health.append(runHealth)
                if runHealth.isNoise(thresholds) {
                    noise.insert(run.row)
                    return true
                }
                let entries = summary.entries
                for index in 0..<entries.count where entries.code(index).anyFailed {
                    candidates.insert(entries.testID(index))
                }
                return true
            }
            let tests = candidates.sorted()
            var byKey: [TestInConfiguration: [RunSample]] = [:]
            try forEachSummary(of: runs.reversed().filter { !noise.contains($0.row) }, seconds: false) {
                run, summary in
                // Both lists are sorted by test row: walk them side by side.
                let entries = summary.entries
                var next = 0
                for index in 0..<entries.count where next < tests.count {
                    let test = entries.testID(index)
                    while next < tests.count, tests[next] < test { next += 1 }
                    guard next < tests.count, tests[next] == test else { continue }
                    let code = entries.code(index)
                    byKey[TestInConfiguration(test: test, configuration: run.configuration), default: []].append(
                        RunSample(
                            run: run.id, at: run.startedAt, revision: run.revision, final: code.final,
                            anyAttemptPassed: code.anyPassed, anyAttemptFailed: code.anyFailed))
                }
                return true
            }
            let info = try testInfo(ids: tests)
            histories = byKey.map { key, samples in
                TestHistory(
                    test: info[key.test]?.key ?? "#\(key.test)", configuration: key.configuration, samples: samples)
            }
        }
        return FlakinessAnalysis.report(
            histories: histories, health: health, predicates: try predicateSites(runs: runs), now: now,
            thresholds: thresholds
        ).marking(try quarantined(project: project, at: now))
    }
}
