import LedgerCore

/// What the culprit report needs of the runs around the attempts it compares: the other tests'
/// attempts that ran beside each, the tests that failed in its run, and the test just before it in
/// its process. Built run by run, for the compared attempts only: a run whose attempts never ran
/// at once gives its failures from its summary and its preceding tests from the store; a run where
/// some did is read once and swept in order of start.
package struct RunNeighbourhood {
    /// An attempt of a run, in the columns that place it in time.
    package struct Row {
        package var id: Int64
        /// Its test's row.
        package var test: Int64
        package var startedAt: Double
        /// When it ended; never (`.infinity`) for an attempt that did not.
        package var endedAt: Double
        /// Failed, erred, crashed or never ended.
        package var isFailing: Bool
        package var process: Int?

        package init(id: Int64, test: Int64, startedAt: Double, duration: Double?, isFailing: Bool, process: Int?) {
            (self.id, self.test, self.startedAt, self.isFailing) = (id, test, startedAt, isFailing)
            self.endedAt = duration.map { startedAt + $0 } ?? .infinity
            self.process = process
        }
    }

    /// How far two attempts must overlap to have run side by side, as the run page draws them.
    static let slack = AttemptTimeline.slack

    /// The other tests' attempts that overlapped each compared attempt, by its row, in row order.
    private var company: [Int64: [Row]] = [:]
    /// The test row stored just before each compared attempt in its serial process.
    private var precedingTest: [Int64: Int64] = [:]
    /// The tests with a failing attempt, by run; after ``addKeys(_:)``, by their ids in `failures`.
    private var failedTests: [Int64: [Int64]] = [:]
    private var failures = WindowFailures(failed: [])
    /// Each run's index in `failures`, by its row.
    private var runIndex: [Int64: Int] = [:]
    /// Test ids by row, of the tests named above.
    private var keys: [Int64: String] = [:]
    /// The steps of the attempts beside the compared ones, by attempt.
    private var steps: [Int64: [AttemptEvidence.Step]] = [:]

    package init() {}

    /// Takes a run none of whose attempts ran at once: no attempt had company.
    /// - Parameters:
    ///   - run: the run's row.
    ///   - failed: the rows of the tests with a failing attempt in it.
    package mutating func addSerialRun(_ run: Int64, failed: [Int64]) {
        failedTests[run] = failed
    }

    /// Takes every attempt of a run where some ran at once, and finds what ran beside each of
    /// `compared` (attempts of that run) and what ran just before it in its process.
    package mutating func addRun(_ run: Int64, rows: [Row], compared: [EvidenceRows.Attempt]) {
        failedTests[run] = Set(rows.lazy.filter(\.isFailing).map(\.test)).sorted()
        for (attempt, found) in Self.sweep(rows, compared) { company[attempt] = found }
        let byProcess = Dictionary(grouping: rows, by: \.process)
        for (process, attempts) in byProcess where Self.isSerial(attempts) {
            let inOrder = attempts.sorted { $0.id < $1.id }
            for attempt in compared where attempt.process == process {
                if let test = Self.preceding(attempt, in: inOrder) { precedingTest[attempt.id] = test }
            }
        }
    }

    /// Takes the test row stored just before compared attempts of serial runs, by attempt row.
    package mutating func addPreceding(_ found: [Int64: Int64]) {
        precedingTest.merge(found) { first, _ in first }
    }

    /// The rows of every test named so far, whose ids ``addKeys(_:)`` takes.
    package var namedTests: [Int64] {
        Array(Set(failedTests.values.joined()).union(precedingTest.values).union(company.values.joined().map(\.test)))
    }

    /// The attempts beside the compared ones, whose steps ``addSteps(_:)`` takes.
    package var companions: [Int64] { Array(Set(company.values.joined().map(\.id))) }

    /// Takes the ids of the tests ``namedTests`` listed.
    package mutating func addKeys(_ found: [Int64: String]) {
        keys = found
        let runs = failedTests.keys.sorted()
        runIndex = Dictionary(uniqueKeysWithValues: runs.enumerated().map { ($1, $0) })
        failures = WindowFailures(failed: runs.map { failedTests[$0, default: []].compactMap { found[$0] } })
    }

    /// Takes the steps of the attempts ``companions`` named, each with the row of its attempt.
    package mutating func addSteps(_ rows: [(result: Int64, activity: StoredActivity)]) {
        var byResult: [Int64: [StoredActivity]] = [:]
        for (result, activity) in rows { byResult[result, default: []].append(activity) }
        steps = byResult.mapValues { EvidenceRows.steps($0) }
    }

    /// What the run's other tests did while the attempt ran: started, ended, or a step of theirs
    /// started or ended.
    /// And the other tests' attempts that ran while it did, with their steps.
    package func neighbours(of attempt: EvidenceRows.Attempt) -> (
        events: [AttemptEvidence.Neighbour], company: [AttemptEvidence.Company]
    ) {
        let others = company[attempt.id] ?? []
        guard !others.isEmpty else { return ([], []) }
        let end = attempt.duration.map { attempt.startedAt + $0 } ?? .infinity
        let inside = { (at: Double) in at > attempt.startedAt + Self.slack && at < end - Self.slack }
        let events = others.flatMap { other in
            let test = keys[other.test] ?? ""
            let ends = [(AttemptEvidence.Neighbour.Event.started, other.startedAt), (.ended, other.endedAt)]
            let stepped = (steps[other.id] ?? []).flatMap { [$0.startedAt] + ($0.endedAt.map { [$0] } ?? []) }
            return (ends + stepped.map { (.stepped, $0) }).filter { inside($0.1) }.map {
                AttemptEvidence.Neighbour(test: test, event: $0.0, at: $0.1)
            }
        }
        let company = others.map { other in
            AttemptEvidence.Company(
                test: keys[other.test] ?? "", startedAt: other.startedAt,
                endedAt: other.endedAt.isFinite ? other.endedAt : nil, steps: steps[other.id] ?? [])
        }
        return (events, company)
    }

    /// The other tests that failed in the attempt's run.
    package func failedInRun(_ attempt: EvidenceRows.Attempt) -> WindowFailures.Run {
        guard let run = runIndex[attempt.run] else { return WindowFailures.Run(failed: []) }
        return WindowFailures.Run(failures, run: run, excluding: attempt.test)
    }

    /// The test stored just before the attempt in its process, when that process ran one test at
    /// a time; attempts of no known process share one.
    package func preceding(_ attempt: EvidenceRows.Attempt) -> String? {
        precedingTest[attempt.id].flatMap { keys[$0] }
    }
}

extension RunNeighbourhood {
    /// For each of `compared`, the other tests' attempts among `rows` whose time overlapped its
    /// own, in row order. One pass in order of start: the attempts that started before a compared
    /// one and had not ended stay in a small set, and those that started while it ran follow it
    /// in the sorted rows; the cost grows with the rows and the company found, not their product.
    static func sweep(_ rows: [Row], _ compared: [EvidenceRows.Attempt]) -> [Int64: [Row]] {
        let byStart = rows.sorted { ($0.startedAt, $0.id) < ($1.startedAt, $1.id) }
        var found: [Int64: [Row]] = [:]
        var running: [Row] = []
        var next = byStart.startIndex
        for attempt in compared.sorted(by: { $0.startedAt < $1.startedAt }) {
            let start = attempt.startedAt
            let end = attempt.duration.map { start + $0 } ?? .infinity
            let isOther = { (other: Row) in other.id != attempt.id && other.test != attempt.testRow }
            while next < byStart.endIndex, byStart[next].startedAt <= start {
                running.append(byStart[next])
                next += 1
            }
            running.removeAll { $0.endedAt <= start + slack }
            var beside = running.filter { isOther($0) && $0.startedAt < end - slack }
            var later = next
            while later < byStart.endIndex, byStart[later].startedAt < end - slack {
                let other = byStart[later]
                if isOther(other), other.endedAt > start + slack { beside.append(other) }
                later += 1
            }
            if !beside.isEmpty { found[attempt.id] = beside.sorted { $0.id < $1.id } }
        }
        return found
    }

    /// The test of the last attempt before `attempt` in `attempts` (one process's, in row order)
    /// that is another test's.
    static func preceding(_ attempt: EvidenceRows.Attempt, in attempts: [Row]) -> Int64? {
        var low = attempts.startIndex
        var high = attempts.endIndex
        while low < high {
            let middle = (low + high) / 2
            if attempts[middle].id < attempt.id { low = middle + 1 } else { high = middle }
        }
        return attempts[..<low].last { $0.test != attempt.testRow }?.test
    }

    /// Whether no two of `attempts` overlap in time: a process that ran one test at a time.
    static func isSerial(_ attempts: [Row]) -> Bool {
        !ConcurrentSpans.anyOverlap(attempts.map { ($0.startedAt, $0.endedAt) })
    }
}
