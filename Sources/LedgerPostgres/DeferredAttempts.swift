import LedgerCore
import LedgerStore
import NIOCore
import PostgresNIO

/// Attempts with details (issues, activities, captures, predicates, attachments) of runs that had
/// no results, written by `COPY` a table at a time instead of a statement per row. Their results and
/// activities take ids reserved from the tables' sequences, so that details name the rows they
/// belong to before those are written.
struct DeferredAttempts {
    /// One `COPY` into a table.
    struct Copy {
        var table: String
        var columns: [String]
        var rows: ByteBuffer
    }

    private var results = TableCopy<StoredRows.Result>(ids: true)
    private var activities = TableCopy<StoredRows.Activity>(ids: true)
    private var issues = TableCopy<StoredRows.Issue>()
    private var captures = TableCopy<StoredRows.Capture>()
    private var predicates = TableCopy<StoredRows.Predicate>()
    private var attachments = TableCopy<StoredRows.Attachment>()
    private var resultIDs = ReservedIDs(table: "result")
    private var activityIDs = ReservedIDs(table: "activity")
    /// The results held here, whose details are held too.
    private var held: Set<Int64> = []

    /// Rows waiting to be copied.
    var count: Int {
        results.count + activities.count + issues.count + captures.count + predicates.count + attachments.count
    }

    func holds(result id: Int64) -> Bool {
        held.contains(id)
    }

    /// Holds a new attempt; returns the id its row will have.
    mutating func result(_ row: StoredRows.Result, ids: PostgresClient) throws -> Int64 {
        let id = try resultIDs.take(from: ids)
        held.insert(id)
        results.add(row, id: id)
        return id
    }

    /// Holds the details of an attempt held by ``result(_:ids:)``.
    mutating func details(of attempt: PendingAttempt, result: Int64, run: Int64, ids: PostgresClient) throws {
        var activityIDs: [String: Int64] = [:]
        for activity in attempt.activities {
            let id = try self.activityIDs.take(from: ids)
            let row = StoredRows.Activity(
                result: result, start: activity, parent: activity.parent.flatMap { activityIDs[$0] },
                end: attempt.activityEnds[activity.activity])
            activities.add(row, id: id)
            activityIDs[activity.activity] = id
        }
        for issue in attempt.issues {
            issues.add(StoredRows.Issue(result: result, issue: issue))
        }
        for capture in attempt.captures {
            let activity = capture.activity.flatMap { activityIDs[$0] }
            captures.add(StoredRows.Capture(result: result, activity: activity, capture: capture))
        }
        for predicate in attempt.predicates {
            let activity = predicate.activity.flatMap { activityIDs[$0] }
            predicates.add(StoredRows.Predicate(result: result, run: run, activity: activity, predicate: predicate))
        }
        for attachment in attempt.attachments {
            let activity = attachment.activity.flatMap { activityIDs[$0] }
            attachments.add(StoredRows.Attachment(result: result, activity: activity, attachment: attachment))
        }
    }

    /// The copies that have rows, in the order the foreign keys need them, emptied.
    mutating func take() -> [Copy] {
        defer { held.removeAll(keepingCapacity: true) }
        return [
            results.take(), activities.take(), issues.take(), captures.take(), predicates.take(), attachments.take(),
        ].compactMap { $0 }
    }
}

/// The rows of one table waiting for a `COPY`.
struct TableCopy<Row: StoredRow> {
    let columns: [String]
    private var rows = CopyText()
    private(set) var count = 0

    /// - Parameter ids: Whether the rows carry ids of their own.
    init(ids: Bool = false) {
        columns = Row.copyColumns(ids: ids)
    }

    mutating func add(_ row: Row, id: Int64? = nil) {
        rows.append(row, id: id)
        count += 1
    }

    /// The `COPY` of the rows, when there are any; emptied.
    mutating func take() -> DeferredAttempts.Copy? {
        guard count > 0 else { return nil }
        defer { (rows, count) = (CopyText(), 0) }
        return DeferredAttempts.Copy(table: Row.table, columns: columns, rows: rows.buffer)
    }
}

/// Ids taken ahead from the sequence of a table's identity column, more at a time as they are used,
/// on a connection other than the ingest's, whose `COPY` they would interrupt (a sequence is
/// outside transactions).
struct ReservedIDs {
    let table: String
    private var reserved: [Int64] = []
    private var block = 64

    init(table: String) {
        self.table = table
    }

    mutating func take(from client: PostgresClient) throws -> Int64 {
        if reserved.isEmpty {
            let query: PostgresQuery =
                "SELECT nextval(pg_get_serial_sequence(\(table), 'id')) FROM generate_series(1, \(block))"
            reserved = try waitFor {
                try await client.query(query, logger: PostgresLedger.logger).collect().map { try $0.decode(Int64.self) }
            }.reversed()
            block = min(block * 4, 4_096)
        }
        return reserved.removeLast()
    }
}
