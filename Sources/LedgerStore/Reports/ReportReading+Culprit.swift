import LedgerCore

extension ReportReading {
    /// `report culprit`: what separates a test's failing attempts from its passing ones over a
    /// window of the project's runs.
    /// - Parameters:
    ///   - test: the test's stable id.
    ///   - project: the project; the newest run's when `nil`.
    ///   - runs: how many of the newest runs make the window.
    ///   - since: only runs started since then, in seconds since 1970.
    ///   - configuration: only runs of this configuration; every configuration when `nil`.
    ///   - criteria: the thresholds of a verdict.
    /// - Throws: ``StoreError/noSuchTest(_:)`` when no run of the window has the test; any
    ///   database error.
    package func culpritReport(
        test: String, project: String?, runs count: Int, since: Double?, configuration: String?,
        criteria: CulpritAnalysis.Criteria = .init()
    ) throws -> CulpritReport {
        guard let project = try project ?? latestProject() else { throw StoreError.noSuchTest(test) }
        var runs = try windowRuns(project: project, count: configuration == nil ? count : nil, since: since)
        if let configuration { runs = Array(runs.filter { $0.configuration == configuration }.prefix(count)) }
        let attempts = try evidenceRows(test: test, project: project, runs: runs).evidence(runs: runs)
        guard !attempts.isEmpty else { throw StoreError.noSuchTest(test + " in the window's runs") }
        return CulpritAnalysis.report(
            test: test, configuration: configuration ?? "*", attempts: attempts, runs: runs.count, criteria: criteria)
    }
}
