import LedgerStore
import PostgresNIO

/// The statements PostgreSQL's ingest runs a row at a time, derived from the row types.
enum PostgresStatement {
    static let upsertRun = StoredRows.Run.insertSQL(.postgresql, conflict: .merge, returning: "id")
    static let endRun = StoredRows.RunEnd.updateSQL(.postgresql)
    static let upsertTarget = StoredRows.TargetRun.insertSQL(.postgresql, conflict: .merge)
    static let upsertTest = StoredRows.Test.insertSQL(.postgresql, conflict: .merge, returning: "id")
    static let insertResult = StoredRows.Result.insertSQL(.postgresql, conflict: .ignore, returning: "id")
    static let completeResult = StoredRows.Result.updateSQL(.postgresql, where: "outcome IS NULL", returning: "id")
    static let insertIssue = StoredRows.Issue.insertSQL(.postgresql)
    static let insertActivity = StoredRows.Activity.insertSQL(.postgresql, returning: "id")
    static let insertCapture = StoredRows.Capture.insertSQL(.postgresql)
    static let insertPredicate = StoredRows.Predicate.insertSQL(.postgresql)
    static let insertAttachment = StoredRows.Attachment.insertSQL(.postgresql)

    /// The stored tests of `project`: id, key and ``StoredRows/Test/fields``.
    static func storedTests(project: String) -> PostgresQuery {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(project)
        return PostgresQuery(unsafeSQL: storedTestsSQL, binds: bindings)
    }

    private static let storedTestsSQL =
        "SELECT id, key, \(StoredRows.Test.fields.map(\.name).joined(separator: ", ")) FROM test WHERE project = $1"
}
