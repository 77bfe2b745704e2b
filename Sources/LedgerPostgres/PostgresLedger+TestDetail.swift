import LedgerCore
import LedgerStore

extension PostgresLedger {
    public func testDetail(test: String, run: String?, project: String? = nil, attempt: Int? = nil) throws
        -> TestDetail
    {
        try transaction(readOnly: true) { session in
            try TestDetail.read(
                test: test, run: run, project: project, attempt: attempt, from: PostgresReader(session: session))
        }
    }
}
