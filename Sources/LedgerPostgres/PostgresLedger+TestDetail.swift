import LedgerCore
import LedgerStore

extension PostgresLedger {
    public func testDetail(test: String, run: String?, project: String? = nil, attempt: Int? = nil) throws
        -> TestDetail
    {
        try withReader { try TestDetail.read(test: test, run: run, project: project, attempt: attempt, from: $0) }
    }
}

extension PostgresLedger: ReadsThroughStoreReader {
    package func withReader<Value: Sendable>(_ body: (any StoreReader) throws -> Value) throws -> Value {
        try transaction(readOnly: true) { session in try body(PostgresReader(session: session)) }
    }
}
