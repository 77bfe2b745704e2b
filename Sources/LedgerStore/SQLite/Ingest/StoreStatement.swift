/// The statements SQLite's ingest prepares, each once per transaction: the keys of
/// ``StoreWrites``'s statement cache.
enum StoreStatement: Hashable, CaseIterable {
    case upsertRun
    case endRun
    case upsertTarget
    case storedTest
    case upsertTest
    case insertResult
    case insertResults
    case completeResult
    case hasResults
    case resultID
    case insertIssue
    case insertActivity
    case insertCapture
    case insertPredicate
    case insertAttachment

    /// The statement's SQL.
    var sql: String {
        switch self {
        case .upsertRun: StoredRows.Run.insertSQL(.sqlite, conflict: .merge, returning: "id")
        case .endRun: StoredRows.RunEnd.updateSQL(.sqlite)
        case .upsertTarget: StoredRows.TargetRun.insertSQL(.sqlite, conflict: .merge)
        case .storedTest:
            "SELECT id, \(StoredRows.Test.fields.map(\.name).joined(separator: ", ")) FROM test WHERE project = ? AND key = ?"
        case .upsertTest: StoredRows.Test.insertSQL(.sqlite, conflict: .merge, returning: "id")
        // The common case, a new attempt, is a plain insert: an upsert with RETURNING costs
        // SQLite twice as much, so the attempt is completed only when it was already there.
        case .insertResult: StoredRows.Result.insertSQL(.sqlite, conflict: .ignore)
        case .insertResults: StoredRows.Result.insertSQL(.sqlite, rows: ResultBatch.rowsPerStatement, conflict: .ignore)
        case .completeResult: StoredRows.Result.updateSQL(.sqlite, where: "outcome IS NULL", returning: "id")
        case .hasResults: "SELECT 1 FROM result WHERE runId = ? LIMIT 1"
        case .resultID: "SELECT id FROM result WHERE runId = ? AND testId = ? AND attempt = ?"
        case .insertIssue: StoredRows.Issue.insertSQL(.sqlite)
        case .insertActivity: StoredRows.Activity.insertSQL(.sqlite, returning: "id")
        case .insertCapture: StoredRows.Capture.insertSQL(.sqlite)
        case .insertPredicate: StoredRows.Predicate.insertSQL(.sqlite)
        case .insertAttachment: StoredRows.Attachment.insertSQL(.sqlite)
        }
    }
}
