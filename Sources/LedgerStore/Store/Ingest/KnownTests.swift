import Foundation
import LedgerCore

/// The test rows this process has seen stored, kept across ingests: a run names the same tests
/// as the run before it, and looking each one up again would cost as much as storing its result.
///
/// Entries are added only after their transaction commits, so a rolled-back ingest leaves none.
package final class KnownTests: @unchecked Sendable {
    /// A test's row id and the columns an upsert could change.
    package struct Entry: Equatable {
        package var id: Int64
        package var columns: TestColumns

        package init(id: Int64, columns: TestColumns) {
            self.id = id
            self.columns = columns
        }

        /// The row after `columns` were stored over `stored` (the row as it was, when there was one).
        package init(id: Int64, columns: TestColumns, over stored: Entry?) {
            self.init(id: id, columns: stored.map { columns.stored(over: $0.columns) } ?? columns)
        }

        /// Whether storing `columns` would change nothing: every given value is already there.
        package func covers(_ columns: TestColumns) -> Bool {
            self.columns.covers(columns)
        }
    }

    private let lock = NSLock()
    private var entries: [String: [String: Entry]] = [:]

    package init() {}

    package func entry(project: String, test: String) -> Entry? {
        lock.withLock { entries[project]?[test] }
    }

    package func merge(_ learned: [String: [String: Entry]]) {
        lock.withLock {
            for (project, tests) in learned {
                entries[project, default: [:]].merge(tests) { _, new in new }
            }
        }
    }
}

/// The columns of a test's row that a `test.start` may change (``StoredRows/Test/fields``), as
/// stored, in order.
package struct TestColumns: Equatable {
    package var values: [StoredValue]

    package init(values: [StoredValue]) {
        self.values = values
    }

    /// The columns `test` gives.
    package init(_ test: StoredRows.Test) {
        self.init(values: StoredRows.Test.fields.map { $0.value(test) })
    }

    /// Whether storing `given` over these would change nothing: every value it gives is here.
    package func covers(_ given: TestColumns) -> Bool {
        zip(given.values, values).allSatisfy { given, stored in given == .null || given == stored }
    }

    /// These columns stored over `stored`, as the upsert stores them (``StoredMerge/takeGiven``).
    package func stored(over stored: TestColumns) -> TestColumns {
        TestColumns(values: zip(values, stored.values).map { given, stored in given == .null ? stored : given })
    }
}
