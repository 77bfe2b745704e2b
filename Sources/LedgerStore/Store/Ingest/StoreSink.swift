import Foundation
import LedgerCore

/// An ``EventSink`` writing into an open write transaction.
///
/// Each attempt's events are held until its `test.end` and then written in one go; an attempt
/// already stored is left alone, so re-sending a run changes nothing.
public struct StoreSink: EventSink {
    /// A problem with the stream's order or references; the caller adds file and line.
    public struct Problem: EventInputProblem, CustomStringConvertible {
        /// What is wrong, without file or line.
        public var message: String
        /// The ``message``.
        public var description: String { message }
    }

    private let writes: any IngestWriting
    /// What has been stored so far in this ingest.
    public private(set) var summary = IngestSummary()
    /// Each run seen: its row id and project; the last one also apart, for speed.
    private var runs: [String: (row: Int64, project: String)] = [:]
    private var lastRun: (uuid: String, row: Int64, project: String)?
    /// Test row ids by project and test id.
    private var testIDs: [String: [String: Int64]] = [:]
    private let knownTests: KnownTests
    /// When set, only runs of this project may be written (a server's write token).
    public var onlyProject: String?
    /// Test rows this ingest read, created or changed, for ``KnownTests`` once it commits: every
    /// row the cache did not already hold as it is.
    package private(set) var learnedTests: [String: [String: KnownTests.Entry]] = [:]
    private var pending = PendingAttempts()
    private var activityOwners: [String: PendingAttempt.Key] = [:]
    /// How each run's summary will be brought up to date, by run row.
    private var summaries: [Int64: SummaryState] = [:]

    private enum SummaryState {
        /// The run had no results before this ingest: summarised from what it writes.
        case building(WrittenAttempts)
        /// Summarised at its `run.end`, and nothing written since.
        case stored
        /// Summarised from its stored results once the ingest is done.
        case reread
    }

    /// A sink writing through `writes`, inside the transaction `writes` works in.
    package init(writes: any IngestWriting, knownTests: KnownTests = KnownTests()) {
        self.knownTests = knownTests
        self.writes = writes
    }

    /// Takes one event: a run's start or end is written at once; a test's events are held until its
    /// `test.end` and then written together.
    ///
    /// `run.end` also stores every attempt of that run still open as crashed.
    ///
    /// - Parameter record: the event and the run it belongs to.
    /// - Throws: ``Problem`` for an event of a run that has no `run.start` yet (in this input or in
    ///   the store), an `activity.end` whose activity never started, or a run of another project than
    ///   ``onlyProject``; any SQLite error.
    public mutating func consume(_ record: LedgerRecord) throws {
        let run = record.run
        switch record.event {
        case .runStart(let start):
            let row = try writes.upsertRun(run, start)
            if runs[run] == nil {
                summary.runs.append(run)
                summaries[row] = try writes.hasResults(run: row) ? .reread : .building(WrittenAttempts())
            }
            let project = try runProject(row) ?? start.project
            try check(project, run: run)
            runs[run] = (row, project)
            lastRun = nil
        case .testStart(let start):
            _ = try self.run(run)
            let key = PendingAttempt.Key(run: run, test: start.test, attempt: start.attempt)
            // A producer that writes an open attempt in batches (the library, for a Swift Testing
            // test whose end it never sees) repeats its start: the attempt goes on.
            if !pending.update(key, { $0.continue(with: start) }) { pending.begin(key, PendingAttempt(start: start)) }
        case .activityStart(let activity):
            let key = PendingAttempt.Key(run: run, test: activity.test, attempt: activity.attempt)
            try withPending(key, at: activity.at) { $0.activities.append(activity) }
            activityOwners[run + "\u{0}" + activity.activity] = key
        case .activityEnd(let end):
            guard let key = activityOwners[run + "\u{0}" + end.activity] else {
                throw Problem(message: "activity.end for activity \"\(end.activity)\" that never started")
            }
            _ = pending.update(key) { $0.activityEnds[end.activity] = end }
        case .capture(let capture):
            try withPending(.init(run: run, test: capture.test, attempt: capture.attempt), at: capture.at) {
                $0.captures.append(capture)
            }
        case .predicate(let predicate):
            try withPending(
                .init(run: run, test: predicate.test, attempt: predicate.attempt), at: predicate.at
            ) { $0.predicates.append(predicate) }
        case .issue(let issue):
            try withPending(.init(run: run, test: issue.test, attempt: issue.attempt), at: issue.at) {
                $0.issues.append(issue)
            }
        case .attachment(let attachment):
            try withPending(
                .init(run: run, test: attachment.test, attempt: attachment.attempt), at: attachment.at
            ) { $0.attachments.append(attachment) }
        case .testEnd(let end):
            let key = PendingAttempt.Key(run: run, test: end.test, attempt: end.attempt)
            let attempt =
                pending.remove(key)
                ?? PendingAttempt(
                    start: .init(at: end.at - end.duration, test: end.test, attempt: end.attempt))
            try write(attempt, end: end, run: run)
        case .targetRun(let target):
            try writes.storeTarget(try self.run(run).row, target)
        case .runEnd(let end):
            let row = try self.run(run).row
            try finishPending(run: run)
            try writes.endRun(row, end)
            try storeWrittenSummary(of: row)
        }
    }

    /// Keeps a warning about skipped input in ``IngestSummary/warnings``.
    ///
    /// - Parameter message: what was skipped and why.
    public mutating func warn(_ message: String) {
        summary.warnings.append(message)
    }

    /// Stores every attempt still open; call once the input is exhausted.
    /// - Parameter running: store them as still running (a live recorder's test start, or
    ///   details of a test whose outcome comes later) instead of as crashed.
    /// - Throws: any database error.
    package mutating func finish(running: Bool = false) throws {
        if running {
            for key in pending.keys {
                guard let attempt = pending.remove(key) else { continue }
                try write(attempt, end: nil, run: key.run)
            }
        } else {
            for run in Set(pending.keys.map(\.run)) { try finishPending(run: run) }
        }
        try count(writes.flushQueue())
        for run in Set(runs.values.map(\.row)) {
            try storeWrittenSummary(of: run)
            if case .stored = summaries[run] { continue }
            try writes.refreshSummary(run: run)
        }
    }

    /// Stores the summary of a run from the attempts this ingest wrote into it, when they are
    /// all it has.
    private mutating func storeWrittenSummary(of run: Int64) throws {
        guard case .building(let written) = summaries[run] else { return }
        if let built = written.summary() {
            try writes.storeSummary(built, run: run)
            summaries[run] = .stored
        } else {
            summaries[run] = .reread
        }
    }

    /// Notes an attempt written into `run`: a summary built or stored from memory takes it in or
    /// gives way to reading the results back.
    private mutating func noteWritten(
        run: Int64, testID: Int64, start: LedgerEvent.TestStart, end: LedgerEvent.TestEnd?
    ) {
        guard case .building(var written) = summaries[run], let end else {
            summaries[run] = .reread
            return
        }
        summaries[run] = .reread  // no second copy of `written` while it grows
        written.append(
            testID: testID, attempt: start.attempt, outcome: end.outcome, startedAt: start.at,
            seconds: max(0, end.duration), load: [start.load, end.load].compactMap { $0 }.max())
        summaries[run] = .building(written)
    }

    private mutating func finishPending(run: String) throws {
        let open = pending.keys.filter { $0.run == run }.sorted {
            (pending.start(of: $0) ?? 0) < (pending.start(of: $1) ?? 0)
        }
        for key in open {
            guard let attempt = pending.remove(key) else { continue }
            try write(attempt, end: attempt.crashedEnd, run: run)
            summary.crashed += 1
        }
    }

    private mutating func withPending(
        _ key: PendingAttempt.Key, at: Double, _ update: (inout PendingAttempt) -> Void
    ) throws {
        if pending.update(key, update) { return }
        _ = try self.run(key.run)
        var attempt = PendingAttempt(start: .init(at: at, test: key.test, attempt: key.attempt))
        update(&attempt)
        pending.begin(key, attempt)
    }

    private mutating func run(_ uuid: String) throws -> (row: Int64, project: String) {
        if let lastRun, lastRun.uuid == uuid { return (lastRun.row, lastRun.project) }
        if let known = runs[uuid] {
            lastRun = (uuid, known.row, known.project)
            return known
        }
        guard let found = try writes.storedRun(uuid) else {
            throw Problem(message: "an event of run \(uuid) comes before its run.start")
        }
        try check(found.project, run: uuid)
        runs[uuid] = found
        summaries[found.row] = .reread
        summary.runs.append(uuid)
        return found
    }

    /// Refuses a run of another project than ``onlyProject``.
    private func check(_ project: String, run: String) throws {
        if let onlyProject, project != onlyProject {
            throw Problem(message: "run \(run) belongs to another project; it cannot take results from \(onlyProject)")
        }
    }

    /// The project a stored run already belongs to: a later run.start cannot move it.
    private func runProject(_ row: Int64) throws -> String? {
        try writes.project(ofRun: row)
    }

    /// Writes an attempt; `end` `nil` stores it as running, its details joining the stored row.
    private mutating func write(_ attempt: PendingAttempt, end: LedgerEvent.TestEnd?, run: String) throws {
        for activity in attempt.activities {
            activityOwners[run + "\u{0}" + activity.activity] = nil
        }
        let (row, project) = try self.run(run)
        let testID: Int64
        if let known = testIDs[project]?[attempt.start.test] {
            testID = known
        } else {
            let known = knownTests.entry(project: project, test: attempt.start.test)
            let entry = try writes.upsertTest(attempt.start, project: project, known: known)
            testID = entry.id
            testIDs[project, default: [:]][attempt.start.test] = testID
            if entry != known { learnedTests[project, default: [:]][attempt.start.test] = entry }
        }
        noteWritten(run: row, testID: testID, start: attempt.start, end: end)
        if let end, attempt.hasNoDetails {
            let queued = StoredRows.Result(run: row, testID: testID, start: attempt.start, end: end)
            if let flushed = try writes.queue(queued) { count(flushed) }
            return
        }
        // Queued attempts stay queued: flushing them here would cut the batches short at every
        // failure. Only a repeated attempt could notice the order, and the first stored wins.
        let inserted = try writes.insertResult(run: row, testID: testID, start: attempt.start, end: end)
        guard
            let resultID = try inserted
                ?? (end == nil ? writes.resultID(run: row, testID: testID, attempt: attempt.start.attempt) : nil)
        else {
            summary.alreadyStored += 1
            return
        }
        try writes.insertDetails(of: attempt, resultID: resultID, run: row)
        summary.results += 1
    }

    private mutating func count(_ flushed: FlushedResults) {
        summary.results += flushed.inserted + flushed.completed
        summary.alreadyStored += flushed.alreadyStored
    }
}
