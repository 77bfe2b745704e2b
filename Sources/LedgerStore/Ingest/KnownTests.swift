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
        package var suite: String?
        package var name: String?
        package var file: String?
        package var line: Int?
        package var layer: String?
        package var tags: String?

        package init(
            id: Int64, suite: String?, name: String?, file: String?, line: Int?, layer: String?, tags: String?
        ) {
            (self.id, self.suite, self.name, self.file, self.line, self.layer, self.tags) = (
                id, suite, name, file, line, layer, tags
            )
        }

        /// Whether storing `columns` would change nothing: every given value is already there.
        package func covers(_ columns: TestColumns) -> Bool {
            covers(
                suite: columns.suite, name: columns.name, file: columns.file, line: columns.line,
                layer: columns.layer, tags: columns.tags)
        }

        /// The row after `columns` were stored over `stored` (the row as it was, when there was one).
        package init(id: Int64, columns: TestColumns, over stored: Entry?) {
            self.init(
                id: id, suite: columns.suite ?? stored?.suite, name: columns.name ?? stored?.name,
                file: columns.file ?? stored?.file, line: columns.line ?? stored?.line,
                layer: columns.layer ?? stored?.layer, tags: columns.tags ?? stored?.tags)
        }

        /// Whether storing these values would change nothing: every given value is already there.
        package func covers(suite: String?, name: String?, file: String?, line: Int?, layer: String?, tags: String?)
            -> Bool
        {
            (suite == nil || suite == self.suite) && (name == nil || name == self.name)
                && (file == nil || file == self.file) && (line == nil || line == self.line)
                && (layer == nil || layer == self.layer) && (tags == nil || tags == self.tags)
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
package struct TestColumns {
    package var suite: String?
    package var name: String?
    package var file: String?
    package var line: Int?
    package var layer: String?
    package var tags: String?

    package init(_ start: LedgerEvent.TestStart) {
        suite = start.suite
        name = start.name
        file = start.file
        line = start.line
        layer = start.layer?.rawValue
        tags = start.tags.map { JSONValue.array($0.map(JSONValue.string)).jsonText }
    }
}
