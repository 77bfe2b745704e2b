import Foundation
import GRDB
import LedgerCore

/// The SQL that writes events into SQLite: statements taken from the connection's cache once per
/// transaction (looking them up by their SQL text for every row would cost as much as the
/// insert) and bound through ``FastStatement``.
final class StoreWrites: IngestWriting {
    let db: Database
    private var statements: [StoreStatement: Statement] = [:]
    private lazy var batch = ResultBatch(db: db, writes: self)

    init(db: Database) {
        self.db = db
    }

    func storedRun(_ uuid: String) throws -> (row: Int64, project: String)? {
        try Row.fetchOne(db, sql: "SELECT id, project FROM run WHERE uuid = ?", arguments: [uuid]).map {
            (row: $0["id"], project: $0["project"])
        }
    }

    func project(ofRun row: Int64) throws -> String? {
        try String.fetchOne(db, sql: "SELECT project FROM run WHERE id = ?", arguments: [row])
    }

    func queue(_ row: consuming StoredRows.Result) throws -> FlushedResults? {
        try batch.append(consume row)
    }

    func flushQueue() throws -> FlushedResults {
        try batch.flush()
    }

    func storeSummary(_ summary: RunSummary, run row: Int64) throws {
        try summary.store(run: row, in: db)
    }

    func refreshSummary(run row: Int64) throws {
        try RunSummary.refresh(run: row, in: db)
    }

    /// The prepared statement `name` names.
    func statement(_ name: StoreStatement) throws -> Statement {
        if let statement = statements[name] { return statement }
        let statement = try db.cachedStatement(sql: name.sql)
        statements[name] = statement
        return statement
    }

    /// Runs `name` with `row`'s columns, in the order of `columns`; the first column of the first
    /// row it returns, when it returns one.
    @discardableResult
    private func write<Stored: StoredRow>(
        _ row: Stored, _ name: StoreStatement, columns: [StoredColumn<Stored>] = Stored.columns
    ) throws -> Int64? {
        var statement = FastStatement(try statement(name))
        statement.bind(row, columns)
        return try statement.step(in: db)
    }

    /// Inserts the run or merges what is new into it; returns its row id.
    func upsertRun(_ uuid: String, _ start: LedgerEvent.RunStart) throws -> Int64 {
        guard let id = try write(StoredRows.Run(uuid: uuid, start: start), .upsertRun) else {
            throw DatabaseError(message: "run upsert returned no id")
        }
        return id
    }

    func endRun(_ run: Int64, _ end: LedgerEvent.RunEnd) throws {
        try write(StoredRows.RunEnd(run: run, end: end), .endRun, columns: StoredRows.RunEnd.updateColumns)
    }

    func storeTarget(_ run: Int64, _ target: LedgerEvent.TargetRun) throws {
        try write(StoredRows.TargetRun(run: run, target: target), .upsertTarget)
    }

    func storedTest(project: String, key: String) throws -> KnownTests.Entry? {
        var lookup = FastStatement(try statement(.storedTest))
        lookup.bind(project)
        lookup.bind(key)
        return try lookup.row(in: db) { row in
            KnownTests.Entry(
                id: row.int64(0),
                columns: TestColumns(values: StoredRows.Test.fields.indices.map { row.storedValue(Int32($0 + 1)) }))
        }
    }

    func writeTest(_ test: StoredRows.Test, columns: TestColumns, over stored: KnownTests.Entry?) throws
        -> KnownTests.Entry
    {
        guard let id = try write(test, .upsertTest) else {
            throw DatabaseError(message: "test upsert returned no id")
        }
        return KnownTests.Entry(id: id, columns: columns, over: stored)
    }

    /// Inserts an attempt, or completes one stored as running; `nil` when the attempt was
    /// already stored complete. `end` `nil` stores the attempt as running.
    func insertResult(
        run: Int64, testID: Int64, start: LedgerEvent.TestStart, end: LedgerEvent.TestEnd?
    ) throws -> Int64? {
        try insertResult(StoredRows.Result(run: run, testID: testID, start: start, end: end))
    }

    /// Inserts an attempt, or completes one stored as running; `nil` when the attempt was
    /// already stored complete.
    func insertResult(_ row: StoredRows.Result) throws -> Int64? {
        try write(row, .insertResult)
        if db.changesCount > 0 { return db.lastInsertedRowID }
        guard row.outcome != nil else { return nil }
        return try completeResult(row)
    }

    /// Completes an attempt stored as running; its row, or `nil` when there was none to complete.
    func completeResult(_ row: StoredRows.Result) throws -> Int64? {
        try write(row, .completeResult, columns: StoredRows.Result.updateColumns)
    }

    /// Whether any attempt of `run` is stored.
    func hasResults(run: Int64) throws -> Bool {
        var statement = FastStatement(try statement(.hasResults))
        statement.bind(run)
        return try statement.step(in: db) != nil
    }

    /// The row of a stored attempt.
    func resultID(run: Int64, testID: Int64, attempt: Int) throws -> Int64? {
        var statement = FastStatement(try statement(.resultID))
        statement.bind(run)
        statement.bind(testID)
        statement.bind(attempt)
        return try statement.step(in: db)
    }

    /// Inserts the attempt's issues, activities, captures, predicates and attachments.
    func insertDetails(of attempt: PendingAttempt, resultID: Int64, run: Int64) throws {
        for issue in attempt.issues {
            try write(StoredRows.Issue(result: resultID, issue: issue), .insertIssue)
        }
        var activityIDs: [String: Int64] = [:]
        for activity in attempt.activities {
            let row = StoredRows.Activity(
                result: resultID, start: activity, parent: activity.parent.flatMap { activityIDs[$0] },
                end: attempt.activityEnds[activity.activity])
            activityIDs[activity.activity] = try write(row, .insertActivity)
        }
        for capture in attempt.captures {
            let activity = capture.activity.flatMap { activityIDs[$0] }
            try write(StoredRows.Capture(result: resultID, activity: activity, capture: capture), .insertCapture)
        }
        for predicate in attempt.predicates {
            let activity = predicate.activity.flatMap { activityIDs[$0] }
            try write(
                StoredRows.Predicate(result: resultID, run: run, activity: activity, predicate: predicate),
                .insertPredicate)
        }
        for attachment in attempt.attachments {
            let activity = attachment.activity.flatMap { activityIDs[$0] }
            try write(
                StoredRows.Attachment(result: resultID, activity: activity, attachment: attachment), .insertAttachment)
        }
    }
}
