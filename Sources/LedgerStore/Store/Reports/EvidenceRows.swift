import LedgerCore

/// A test's attempts over a window and what happened inside them, as a store reads them for the
/// culprit report: one list per table, assembled into ``AttemptEvidence`` the same way for both
/// stores.
package struct EvidenceRows {
    /// An attempt's row, with its test's id and its run's host.
    package struct Attempt {
        package var id: Int64
        package var test: String
        /// Its test's row.
        package var testRow: Int64
        package var run: Int64
        package var attempt: Int
        package var outcome: String?
        package var startedAt: Double
        package var duration: Double?
        package var message: String?
        package var host: String?
        package var process: Int?
        package var load: Double?
        package var cpu: Double?

        package init(
            id: Int64, test: String, testRow: Int64, run: Int64, attempt: Int, outcome: String?, startedAt: Double,
            duration: Double?,
            message: String?, host: String?, process: Int? = nil, load: Double? = nil, cpu: Double? = nil
        ) {
            (self.id, self.test, self.testRow, self.run, self.attempt) = (id, test, testRow, run, attempt)
            self.outcome = outcome
            self.startedAt = startedAt
            (self.duration, self.message, self.host) = (duration, message, host)
            (self.process, self.load, self.cpu) = (process, load, cpu)
        }
    }

    /// A check's row.
    package struct Check {
        package var result: Int64
        package var activity: Int64?
        package var name: String
        package var expect: String
        package var held: Bool
        package var waited: Double
        package var timeout: Double
        package var at: Double

        package init(
            result: Int64, activity: Int64?, name: String, expect: String, held: Bool, waited: Double, timeout: Double,
            at: Double
        ) {
            (self.result, self.activity, self.name, self.expect) = (result, activity, name, expect)
            (self.held, self.waited, self.timeout, self.at) = (held, waited, timeout, at)
        }
    }

    /// A capture's row; its fields as stored JSON text.
    package struct Capture {
        package var result: Int64
        package var activity: Int64?
        package var verifier: String
        package var fields: String?
        package var at: Double

        package init(result: Int64, activity: Int64?, verifier: String, fields: String?, at: Double) {
            (self.result, self.activity, self.verifier, self.fields, self.at) = (result, activity, verifier, fields, at)
        }
    }

    /// An issue's row.
    package struct Issue {
        package var result: Int64
        package var at: Double
        package var message: String
        package var file: String?
        package var line: Int?

        package init(result: Int64, at: Double, message: String, file: String?, line: Int?) {
            (self.result, self.at, self.message, self.file, self.line) = (result, at, message, file, line)
        }
    }

    package var attempts: [Attempt] = []
    /// Each activity with the row of the result it belongs to.
    package var activities: [(result: Int64, activity: StoredActivity)] = []
    package var checks: [Check] = []
    package var captures: [Capture] = []
    package var issues: [Issue] = []
    /// Every attempt of the runs: what ran beside each attempt, failed in its run, ran before it.
    package var neighbourhood = RunNeighbourhood()

    package init() {}

    /// The rows of the attempts that failed, erred, crashed or never ended: only their issues are
    /// read, since where an attempt failed is all the report asks of issues.
    package var failingAttemptIDs: [Int64] {
        attempts.filter { $0.outcome.flatMap(Outcome.init(rawValue:))?.isFailure ?? true }.map(\.id)
    }

    /// Each test's attempts as the culprit report compares them, in the order read.
    /// - Parameter runs: the window's runs, for each attempt's run id and configuration.
    /// - Returns: each test's attempts, oldest run first and in attempt order, by test id.
    package func evidence(runs: [WindowRun]) -> [String: [AttemptEvidence]] {
        let byRow = Dictionary(runs.map { ($0.row, $0) }, uniquingKeysWith: { first, _ in first })
        var activitiesOf: [Int64: [StoredActivity]] = [:]
        for (result, activity) in activities { activitiesOf[result, default: []].append(activity) }
        var checksOf: [Int64: [Check]] = [:]
        for check in checks { checksOf[check.result, default: []].append(check) }
        var capturesOf: [Int64: [Capture]] = [:]
        for capture in captures { capturesOf[capture.result, default: []].append(capture) }
        var issuesOf: [Int64: [Issue]] = [:]
        for issue in issues { issuesOf[issue.result, default: []].append(issue) }

        // Oldest run first, then by attempt: the order the stores need not read them in.
        let started = Dictionary(runs.map { ($0.row, $0.startedAt) }, uniquingKeysWith: { first, _ in first })
        let sorted = attempts.sorted {
            ($0.test, started[$0.run] ?? 0, $0.run, $0.attempt, $0.id)
                < ($1.test, started[$1.run] ?? 0, $1.run, $1.attempt, $1.id)
        }
        var byTest: [String: [AttemptEvidence]] = [:]
        for row in sorted {
            let stored = activitiesOf[row.id] ?? []
            let paths = Self.paths(stored)
            let neighbours = neighbourhood.neighbours(of: row)
            var evidence = AttemptEvidence(
                run: byRow[row.run]?.id ?? "", attempt: row.attempt,
                outcome: row.outcome.flatMap(Outcome.init(rawValue:)),
                startedAt: row.startedAt, duration: row.duration,
                configuration: byRow[row.run]?.configuration ?? "",
                host: row.host, preceding: neighbourhood.preceding(row),
                steps: Self.steps(stored, paths: paths),
                checks: (checksOf[row.id] ?? []).map {
                    AttemptEvidence.Check(
                        name: $0.name, expect: PredicateExpectation(rawValue: $0.expect) ?? .holds, held: $0.held,
                        waited: $0.waited, timeout: $0.timeout, at: $0.at,
                        stepPath: $0.activity.flatMap { paths[$0] } ?? [])
                },
                captures: (capturesOf[row.id] ?? []).map {
                    AttemptEvidence.Capture(
                        verifier: $0.verifier, fields: $0.fields.flatMap { JSONValue(jsonText: $0) }, at: $0.at,
                        stepPath: $0.activity.flatMap { paths[$0] } ?? [])
                },
                issues: (issuesOf[row.id] ?? []).map {
                    AttemptEvidence.Issue(at: $0.at, message: $0.message, file: $0.file, line: $0.line)
                },
                message: row.message)
            (evidence.process, evidence.load, evidence.cpu) = (row.process, row.load, row.cpu)
            (evidence.beside, evidence.company) = neighbours
            evidence.failedInRun = neighbourhood.failedInRun(row)
            byTest[row.test, default: []].append(evidence)
        }
        return byTest
    }

    /// An attempt's steps, from its activities in order of start.
    static func steps(_ activities: [StoredActivity], paths: [Int64: [String]]? = nil) -> [AttemptEvidence.Step] {
        let paths = paths ?? Self.paths(activities)
        return activities.map {
            AttemptEvidence.Step(
                path: paths[$0.id] ?? [], startedAt: $0.started, endedAt: $0.ended,
                outcome: $0.outcome.flatMap(Outcome.init(rawValue:)))
        }
    }

    /// Each activity's path of names from its outermost step; a step without a name is `?`.
    private static func paths(_ activities: [StoredActivity]) -> [Int64: [String]] {
        let byID = Dictionary(activities.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var paths: [Int64: [String]] = [:]
        func path(_ id: Int64, depth: Int) -> [String] {
            if let known = paths[id] { return known }
            guard let activity = byID[id] else { return [] }
            // A parent loop (which no producer writes) ends at the depth of the rows.
            let parent = activity.parent.flatMap { depth < activities.count ? path($0, depth: depth + 1) : nil } ?? []
            let found = parent + [activity.name ?? "?"]
            paths[id] = found
            return found
        }
        for activity in activities { _ = path(activity.id, depth: 0) }
        return paths
    }
}
