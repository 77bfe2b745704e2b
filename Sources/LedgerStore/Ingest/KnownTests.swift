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

/// The columns of a test's row that a `test.start` gives, as stored: tags as a JSON array's text.
package struct TestColumns: Equatable {
    package var suite: String?
    package var name: String?
    package var file: String?
    package var line: Int?
    package var layer: String?
    package var tags: String?

    package init(
        suite: String?, name: String?, file: String?, line: Int?, layer: String?, tags: String?
    ) {
        (self.suite, self.name, self.file, self.line, self.layer, self.tags) = (suite, name, file, line, layer, tags)
    }

    package init(_ start: LedgerEvent.TestStart) {
        self.init(
            suite: start.suite, name: start.name, file: start.file, line: start.line, layer: start.layer?.rawValue,
            tags: start.tags.map { JSONValue.array($0.map(JSONValue.string)).jsonText })
    }

    /// Whether storing `given` over these would change nothing: every value it gives is here.
    package func covers(_ given: TestColumns) -> Bool {
        (given.suite == nil || given.suite == suite) && (given.name == nil || given.name == name)
            && (given.file == nil || given.file == file) && (given.line == nil || given.line == line)
            && (given.layer == nil || given.layer == layer) && (given.tags == nil || given.tags == tags)
    }

    /// These columns stored over `stored`, as the upsert's `coalesce` stores them.
    package func stored(over stored: TestColumns) -> TestColumns {
        TestColumns(
            suite: suite ?? stored.suite, name: name ?? stored.name, file: file ?? stored.file,
            line: line ?? stored.line, layer: layer ?? stored.layer, tags: tags ?? stored.tags)
    }
}
