import LedgerCore

/// The rows the ingest writes, a type per table (the run's two: its start and its end), each
/// listing the columns it writes. A stored field is one line here, and its two migrations;
/// `StoredRowSchemaTests` holds these lists to the tables the migrations create.
package enum StoredRows {
    /// What a row type says of one of its columns.
    package struct Column: Sendable, Equatable {
        package var name: String
        package var type: StoredValue.Kind
        package var isOptional: Bool
    }

    /// Each row type's table, the columns it writes and those set by other statements.
    package static let tables: [(table: String, columns: [Column], setElsewhere: [String])] = [
        describe(Run.self), describe(RunEnd.self), describe(Test.self), describe(Result.self),
        describe(Issue.self), describe(Activity.self), describe(Capture.self), describe(Predicate.self),
        describe(Attachment.self), describe(TargetRun.self),
    ]

    private static func describe<Row: StoredRow>(_: Row.Type) -> (
        table: String, columns: [Column], setElsewhere: [String]
    ) {
        (
            Row.table, Row.columns.map { Column(name: $0.name, type: $0.type, isOptional: $0.isOptional) },
            Row.columnsSetElsewhere
        )
    }
}

extension StoredRows {
    /// A run as its `run.start` stores it, merged field by field into a run stored before.
    package struct Run: StoredRow {
        package var uuid: String
        package var start: LedgerEvent.RunStart

        package init(uuid: String, start: LedgerEvent.RunStart) {
            (self.uuid, self.start) = (uuid, start)
        }

        package static let table = "run"
        package static let columns: [StoredColumn<Self>] = [
            StoredColumn("uuid", .key) { $0.uuid },
            StoredColumn("project") { $0.start.project },
            StoredColumn("source") { $0.start.source },
            StoredColumn("startedAt", .earliest) { $0.start.at },
            StoredColumn("revision", .keepGiven) { $0.start.revision },
            StoredColumn("branch", .keepGiven) { $0.start.branch },
            StoredColumn("ciProvider", .keepGiven) { $0.start.ci?.provider },
            StoredColumn("ciBuild", .keepGiven) { $0.start.ci?.build },
            StoredColumn("ciJob", .keepGiven) { $0.start.ci?.job },
            StoredColumn("ciUrl", .keepGiven) { $0.start.ci?.url },
            StoredColumn("ciAttempt", .keepGiven) { $0.start.attempt },
            StoredColumn("host", .keepGiven) { $0.start.host },
            StoredColumn("configuration", .fillEmpty) { $0.start.configuration ?? "" },
            StoredColumn("labels", .keepGiven) {
                $0.start.labels.map { JSONValue.object($0.mapValues(JSONValue.string)).jsonText }
            },
            StoredColumn("kind", .keepGiven) { $0.start.kind?.rawValue },
        ]
    }

    /// What a `run.end` stores into its run's row.
    package struct RunEnd: StoredRow {
        package var run: Int64
        package var end: LedgerEvent.RunEnd

        package init(run: Int64, end: LedgerEvent.RunEnd) {
            (self.run, self.end) = (run, end)
        }

        package static let table = "run"
        package static let columns: [StoredColumn<Self>] = [
            StoredColumn("id", .key) { $0.run },
            StoredColumn("endedAt", .latest) { $0.end.at },
            StoredColumn("outcome", .takeGivenOr("'finished'")) { $0.end.outcome?.rawValue },
            StoredColumn("reportedTests", .takeGiven) { $0.end.counts?.tests },
            StoredColumn("reportedFailures", .takeGiven) { $0.end.counts?.failures },
            StoredColumn("reportedErrors", .takeGiven) { $0.end.counts?.errors },
        ]
    }

    /// A `target` event: a test target of a run that selected its tests; a second one for the same
    /// target replaces the first.
    package struct TargetRun: StoredRow {
        package var run: Int64
        package var target: LedgerEvent.TargetRun

        package init(run: Int64, target: LedgerEvent.TargetRun) {
            (self.run, self.target) = (run, target)
        }

        package static let table = "target_run"
        package static let columns: [StoredColumn<Self>] = [
            StoredColumn("runId", .key) { $0.run },
            StoredColumn("target", .key) { $0.target.target },
            StoredColumn("at", .replace) { $0.target.at },
            StoredColumn("hash", .replace) { $0.target.hash },
            StoredColumn("tests", .replace) { $0.target.tests },
            StoredColumn("passed", .replace) { $0.target.passed },
            StoredColumn("vouchedBy", .replace) { $0.target.vouchedBy },
            StoredColumn("skipped", .replace) { $0.target.skipped },
        ]
    }

    /// A test as a `test.start` stores it: what it gives replaces what the row had.
    package struct Test: StoredRow {
        package var project: String
        package var start: LedgerEvent.TestStart

        package init(project: String, start: LedgerEvent.TestStart) {
            (self.project, self.start) = (project, start)
        }

        package static let table = "test"
        package static let columns: [StoredColumn<Self>] = [
            StoredColumn("project", .key) { $0.project },
            StoredColumn("key", .key) { $0.start.test },
            StoredColumn("suite", .takeGiven) { $0.start.suite },
            StoredColumn("name", .takeGiven) { $0.start.name },
            StoredColumn("file", .takeGiven) { $0.start.file },
            StoredColumn("line", .takeGiven) { $0.start.line },
            StoredColumn("layer", .takeGiven) { $0.start.layer?.rawValue },
            StoredColumn("tags", .takeGiven) {
                $0.start.tags.map { JSONValue.array($0.map(JSONValue.string)).jsonText }
            },
        ]
        /// The columns a `test.start` may change: all but those naming the test. ``TestColumns``
        /// holds their values, merged as ``StoredMerge/takeGiven`` merges them.
        package static let fields = columns.filter { $0.merge != .key }
    }

    /// One attempt of a test; an attempt stored as running (no outcome) is completed by one that ended.
    package struct Result: StoredRow, Sendable {
        package var run: Int64
        package var testID: Int64
        package var attempt: Int
        package var startedAt: Double
        package var duration: Double?
        package var outcome: String?
        package var message: String?
        /// The process it ran in.
        package var process: Int?
        /// The higher of the load averages sampled at its start and its end.
        package var load: Double?
        /// The CPU seconds its process used while it ran.
        package var cpu: Double?

        package init(
            run: Int64, testID: Int64, attempt: Int, startedAt: Double, duration: Double?, outcome: String?,
            message: String?
        ) {
            (self.run, self.testID, self.attempt, self.startedAt) = (run, testID, attempt, startedAt)
            (self.duration, self.outcome, self.message) = (duration, outcome, message)
        }

        /// The attempt `start` began and `end`, when there is one, ended.
        package init(run: Int64, testID: Int64, start: LedgerEvent.TestStart, end: LedgerEvent.TestEnd?) {
            self.init(
                run: run, testID: testID, attempt: start.attempt, startedAt: start.at,
                duration: end.map { max(0, $0.duration) },
                outcome: end?.outcome.rawValue, message: end?.message)
            process = start.process
            load = [start.load, end?.load].compactMap { $0 }.max()
            cpu = end?.cpu
        }

        package static let table = "result"
        package static let columns: [StoredColumn<Self>] = [
            StoredColumn("runId", .key) { $0.run },
            StoredColumn("testId", .key) { $0.testID },
            StoredColumn("attempt", .key) { $0.attempt },
            StoredColumn("startedAt", .earliest) { $0.startedAt },
            StoredColumn("duration", .replace) { $0.duration },
            StoredColumn("outcome", .replace) { $0.outcome },
            StoredColumn("message", .replace) { $0.message },
            StoredColumn("process", .takeGiven) { $0.process },
            StoredColumn("load", .takeGiven) { $0.load },
            StoredColumn("cpu", .takeGiven) { $0.cpu },
        ]
        /// `muted` is set when a muted test's failure is let through (`markMuted(run:tests:)`).
        package static let columnsSetElsewhere = ["muted"]
    }

    /// An issue of an attempt.
    package struct Issue: StoredRow {
        package var result: Int64
        package var issue: LedgerEvent.Issue

        package init(result: Int64, issue: LedgerEvent.Issue) {
            (self.result, self.issue) = (result, issue)
        }

        package static let table = "issue"
        package static let columns: [StoredColumn<Self>] = [
            StoredColumn("resultId") { $0.result },
            StoredColumn("at") { $0.issue.at },
            StoredColumn("message") { $0.issue.message },
            StoredColumn("file") { $0.issue.file },
            StoredColumn("line") { $0.issue.line },
            StoredColumn("kind") { $0.issue.kind?.rawValue },
        ]
    }

    /// A step of an attempt, with its end when it ended.
    package struct Activity: StoredRow {
        package var result: Int64
        package var start: LedgerEvent.ActivityStart
        /// The row of the activity it is nested in.
        package var parent: Int64?
        package var end: LedgerEvent.ActivityEnd?

        package init(result: Int64, start: LedgerEvent.ActivityStart, parent: Int64?, end: LedgerEvent.ActivityEnd?) {
            (self.result, self.start, self.parent, self.end) = (result, start, parent, end)
        }

        package static let table = "activity"
        package static let columns: [StoredColumn<Self>] = [
            StoredColumn("resultId") { $0.result },
            StoredColumn("key") { $0.start.activity },
            StoredColumn("parentId") { $0.parent },
            StoredColumn("name") { $0.start.name },
            StoredColumn("startedAt") { $0.start.at },
            StoredColumn("endedAt") { $0.end?.at },
            StoredColumn("outcome") { $0.end?.outcome?.rawValue },
        ]
    }

    /// What a verifier saw during an attempt.
    package struct Capture: StoredRow {
        package var result: Int64
        /// The row of the activity it was captured in.
        package var activity: Int64?
        package var capture: LedgerEvent.Capture

        package init(result: Int64, activity: Int64?, capture: LedgerEvent.Capture) {
            (self.result, self.activity, self.capture) = (result, activity, capture)
        }

        package static let table = "capture"
        package static let columns: [StoredColumn<Self>] = [
            StoredColumn("resultId") { $0.result },
            StoredColumn("activityId") { $0.activity },
            StoredColumn("at") { $0.capture.at },
            StoredColumn("verifier") { $0.capture.verifier },
            StoredColumn("fields") { $0.capture.fields?.jsonText },
        ]
    }

    /// One evaluation of a retry-based check during an attempt.
    package struct Predicate: StoredRow {
        package var result: Int64
        package var run: Int64
        /// The row of the activity the check ran in.
        package var activity: Int64?
        package var predicate: LedgerEvent.Predicate

        package init(result: Int64, run: Int64, activity: Int64?, predicate: LedgerEvent.Predicate) {
            (self.result, self.run, self.activity, self.predicate) = (result, run, activity, predicate)
        }

        package static let table = "predicate"
        package static let columns: [StoredColumn<Self>] = [
            StoredColumn("resultId") { $0.result },
            StoredColumn("runId") { $0.run },
            StoredColumn("activityId") { $0.activity },
            StoredColumn("at") { $0.predicate.at },
            StoredColumn("name") { $0.predicate.name },
            StoredColumn("expect") { $0.predicate.expect.rawValue },
            StoredColumn("held") { $0.predicate.held },
            StoredColumn("attempts") { $0.predicate.attempts },
            StoredColumn("waited") { $0.predicate.waited },
            StoredColumn("timeout") { $0.predicate.timeout },
            StoredColumn("interval") { $0.predicate.interval },
            StoredColumn("file") { $0.predicate.file },
            StoredColumn("line") { $0.predicate.line },
        ]
    }

    /// A file attached during an attempt.
    package struct Attachment: StoredRow {
        package var result: Int64
        /// The row of the activity it was attached in.
        package var activity: Int64?
        package var attachment: LedgerEvent.Attachment

        package init(result: Int64, activity: Int64?, attachment: LedgerEvent.Attachment) {
            (self.result, self.activity, self.attachment) = (result, activity, attachment)
        }

        package static let table = "attachment"
        package static let columns: [StoredColumn<Self>] = [
            StoredColumn("resultId") { $0.result },
            StoredColumn("activityId") { $0.activity },
            StoredColumn("at") { $0.attachment.at },
            StoredColumn("name") { $0.attachment.name },
            StoredColumn("mediaType") { $0.attachment.mediaType },
            StoredColumn("size") { $0.attachment.size },
            StoredColumn("path") { $0.attachment.path },
        ]
    }
}
