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
        var rows = CopyText()
        var count = 0

        init(_ table: String, _ columns: [String]) {
            self.table = table
            self.columns = columns
        }
    }

    /// In the order the foreign keys need them.
    private(set) var copies = [
        Copy("result", ["id", "runid", "testid", "attempt", "startedat", "duration", "outcome", "message"]),
        Copy("activity", ["id", "resultid", "key", "parentid", "name", "startedat", "endedat", "outcome"]),
        Copy("issue", ["resultid", "at", "message", "file", "line", "kind"]),
        Copy("capture", ["resultid", "activityid", "at", "verifier", "fields"]),
        Copy(
            "predicate",
            [
                "resultid", "runid", "activityid", "at", "name", "expect", "held", "attempts", "waited", "timeout",
                "interval", "file", "line",
            ]),
        Copy("attachment", ["resultid", "activityid", "at", "name", "mediatype", "size", "path"]),
    ]
    private var resultIDs = ReservedIDs(table: "result")
    private var activityIDs = ReservedIDs(table: "activity")
    /// The results held here, whose details are held too.
    private var held: Set<Int64> = []

    /// Rows waiting to be copied.
    var count: Int { copies.reduce(0) { $0 + $1.count } }

    func holds(result id: Int64) -> Bool {
        held.contains(id)
    }

    /// Holds a new attempt; returns the id its row will have.
    mutating func result(
        run: Int64, testID: Int64, start: LedgerEvent.TestStart, end: LedgerEvent.TestEnd?, ids: PostgresClient
    ) throws -> Int64 {
        let id = try resultIDs.take(from: ids)
        held.insert(id)
        add(to: 0) { row in
            row.append(id)
            row.append(run)
            row.append(testID)
            row.append(start.attempt)
            row.append(start.at)
            row.append(end.map { max(0, $0.duration) })
            row.append(end?.outcome.rawValue)
            row.append(end?.message, last: true)
        }
        return id
    }

    /// Holds the details of an attempt held by ``result(run:testID:start:end:ids:)``.
    mutating func details(of attempt: PendingAttempt, result: Int64, run: Int64, ids: PostgresClient) throws {
        var activities: [String: Int64] = [:]
        for activity in attempt.activities {
            let id = try activityIDs.take(from: ids)
            let end = attempt.activityEnds[activity.activity]
            add(to: 1) { row in
                row.append(id)
                row.append(result)
                row.append(activity.activity)
                row.append(activity.parent.flatMap { activities[$0] })
                row.append(activity.name)
                row.append(activity.at)
                row.append(end?.at)
                row.append(end?.outcome?.rawValue, last: true)
            }
            activities[activity.activity] = id
        }
        for issue in attempt.issues {
            add(to: 2) { row in
                row.append(result)
                row.append(issue.at)
                row.append(issue.message)
                row.append(issue.file)
                row.append(issue.line)
                row.append(issue.kind?.rawValue, last: true)
            }
        }
        for capture in attempt.captures {
            add(to: 3) { row in
                row.append(result)
                row.append(capture.activity.flatMap { activities[$0] })
                row.append(capture.at)
                row.append(capture.verifier)
                row.append(capture.fields?.jsonText, last: true)
            }
        }
        for predicate in attempt.predicates {
            add(to: 4) { row in
                row.append(result)
                row.append(run)
                row.append(predicate.activity.flatMap { activities[$0] })
                row.append(predicate.at)
                row.append(predicate.name)
                row.append(predicate.expect.rawValue)
                row.append(predicate.held ? 1 : 0)
                row.append(predicate.attempts)
                row.append(predicate.waited)
                row.append(predicate.timeout)
                row.append(predicate.interval)
                row.append(predicate.file)
                row.append(predicate.line, last: true)
            }
        }
        for attachment in attempt.attachments {
            add(to: 5) { row in
                row.append(result)
                row.append(attachment.activity.flatMap { activities[$0] })
                row.append(attachment.at)
                row.append(attachment.name)
                row.append(attachment.mediaType)
                row.append(attachment.size)
                row.append(attachment.path, last: true)
            }
        }
    }

    /// The copies that have rows, emptied.
    mutating func take() -> [Copy] {
        defer {
            for index in copies.indices {
                copies[index].rows = CopyText()
                copies[index].count = 0
            }
            held.removeAll(keepingCapacity: true)
        }
        return copies.filter { $0.count > 0 }
    }

    private mutating func add(to table: Int, _ row: (inout CopyText) -> Void) {
        row(&copies[table].rows)
        copies[table].count += 1
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
