import LedgerCore

/// Every attempt of the window's runs, in the few columns that tell what ran beside what: the
/// culprit report's tests that ran beside an attempt, that failed in its run, and that ran just
/// before it in its process.
package struct RunNeighbourhood {
    /// An attempt of one of the runs.
    package struct Row {
        package var id: Int64
        package var test: String
        package var run: Int64
        package var startedAt: Double
        package var duration: Double?
        package var outcome: String?
        package var process: Int?

        package init(
            id: Int64, test: String, run: Int64, startedAt: Double, duration: Double?, outcome: String?, process: Int?
        ) {
            (self.id, self.test, self.run, self.startedAt) = (id, test, run, startedAt)
            (self.duration, self.outcome, self.process) = (duration, outcome, process)
        }

        /// When it ended; never, for an attempt that did not.
        var endedAt: Double { duration.map { startedAt + $0 } ?? .infinity }
        /// Failed, erred, crashed or never ended.
        var isFailing: Bool { outcome.flatMap(Outcome.init(rawValue:))?.isFailure ?? true }
    }

    /// How far two attempts must overlap to have run side by side, as the run page draws them.
    static let slack = AttemptTimeline.slack

    /// Each run's attempts, in the order stored.
    private let byRun: [Int64: [Row]]
    /// The processes of each run that ran one test at a time; `nil` stands for no known process.
    private let serial: [Int64: Set<Int?>]
    /// The steps of the attempts beside the compared ones, by attempt: their paths and times.
    private var steps: [Int64: [AttemptEvidence.Step]] = [:]

    /// - Parameter rows: every attempt of the runs.
    package init(_ rows: [Row]) {
        byRun = Dictionary(grouping: rows, by: \.run).mapValues { $0.sorted { $0.id < $1.id } }
        serial = byRun.mapValues { attempts in
            Set(Dictionary(grouping: attempts, by: \.process).filter { Self.isSerial($0.value) }.keys)
        }
    }

    /// The attempts that ran beside any of `attempts`: whose steps the store reads next.
    package func beside(_ attempts: [EvidenceRows.Attempt]) -> [Int64] {
        Array(Set(attempts.flatMap { attempt in overlapping(attempt).map(\.id) }))
    }

    /// Takes the steps of the attempts ``beside(_:)`` named, each with the row of its attempt.
    package mutating func addSteps(_ rows: [(result: Int64, activity: StoredActivity)]) {
        var byResult: [Int64: [StoredActivity]] = [:]
        for (result, activity) in rows { byResult[result, default: []].append(activity) }
        steps = byResult.mapValues { EvidenceRows.steps($0) }
    }

    /// The other attempts of the attempt's run whose time overlaps its own.
    private func overlapping(_ attempt: EvidenceRows.Attempt) -> [Row] {
        let end = attempt.duration.map { attempt.startedAt + $0 } ?? .infinity
        return (byRun[attempt.run] ?? []).filter { other in
            other.id != attempt.id && other.test != attempt.test && other.startedAt < end - Self.slack
                && other.endedAt > attempt.startedAt + Self.slack
        }
    }

    /// What the run's other tests did while the attempt ran: started, ended, or a step of theirs
    /// started or ended.
    /// And the other tests' attempts that ran while it did, with their steps.
    package func neighbours(of attempt: EvidenceRows.Attempt) -> (
        events: [AttemptEvidence.Neighbour], company: [AttemptEvidence.Company]
    ) {
        let end = attempt.duration.map { attempt.startedAt + $0 } ?? .infinity
        let inside = { (at: Double) in at > attempt.startedAt + Self.slack && at < end - Self.slack }
        let others = overlapping(attempt)
        let events = others.flatMap { other in
            let ends = [(AttemptEvidence.Neighbour.Event.started, other.startedAt), (.ended, other.endedAt)]
            let stepped = (steps[other.id] ?? []).flatMap { [$0.startedAt] + ($0.endedAt.map { [$0] } ?? []) }
            return (ends + stepped.map { (.stepped, $0) }).filter { inside($0.1) }.map {
                AttemptEvidence.Neighbour(test: other.test, event: $0.0, at: $0.1)
            }
        }
        let company = others.map { other in
            AttemptEvidence.Company(
                test: other.test, startedAt: other.startedAt, endedAt: other.duration.map { other.startedAt + $0 },
                steps: steps[other.id] ?? [])
        }
        return (events, company)
    }

    /// The other tests that failed in the attempt's run.
    package func failedBeside(_ attempt: EvidenceRows.Attempt) -> Set<String> {
        Set((byRun[attempt.run] ?? []).filter { $0.isFailing && $0.test != attempt.test }.map(\.test))
    }

    /// The test stored just before the attempt in its process, when that process ran one test at
    /// a time; attempts of no known process share one.
    package func preceding(_ attempt: EvidenceRows.Attempt) -> String? {
        guard serial[attempt.run]?.contains(attempt.process) == true else { return nil }
        return (byRun[attempt.run] ?? []).last {
            $0.process == attempt.process && $0.id < attempt.id && $0.test != attempt.test
        }?.test
    }

    /// Whether no two of `attempts` overlap in time: a process that ran one test at a time.
    static func isSerial(_ attempts: [Row]) -> Bool {
        var latestEnd = -Double.infinity
        for attempt in attempts.sorted(by: { $0.startedAt < $1.startedAt }) {
            if attempt.startedAt < latestEnd - slack { return false }
            latestEnd = max(latestEnd, attempt.endedAt)
        }
        return true
    }
}
