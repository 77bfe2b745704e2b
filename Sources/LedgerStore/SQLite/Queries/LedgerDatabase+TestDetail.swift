import Foundation
import GRDB
import LedgerCore

extension LedgerDatabase {
    /// One test's attempt (its final one, by default) in a run (the newest run that has it, by
    /// default), with its failures, activity tree, captures, predicates and attachments.
    /// - Parameters:
    ///   - test: the stable test id.
    ///   - run: a run id; the newest run with the test when `nil`.
    ///   - project: only runs of this project, when given.
    ///   - attempt: this attempt (1 is the first); the highest-numbered when `nil`.
    /// - Returns: the detail of the test's attempt in that run, with the outcomes of all its
    ///   attempts there.
    /// - Throws: ``StoreError/noSuchTest(_:)`` when no run has that test (or that attempt of it).
    public func testDetail(test: String, run: String?, project: String? = nil, attempt: Int? = nil) throws
        -> TestDetail
    {
        try withReader { try TestDetail.read(test: test, run: run, project: project, attempt: attempt, from: $0) }
    }
}

extension LedgerDatabase: ReadsThroughStoreReader {
    package func withReader<Value: Sendable>(_ body: (any StoreReader) throws -> Value) throws -> Value {
        try writer.read { db in try body(SQLiteReader(db: db)) }
    }
}
