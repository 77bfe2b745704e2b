import Foundation
import LedgerImport

/// Collects XCTest console results from the two output threads.
package final class ConsoleCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var parser = XCTestConsoleParser()

    package init() {}

    package func consume(_ line: Substring) {
        let now = Date().timeIntervalSince1970
        lock.withLock { parser.consume(line, now: now) }
    }

    /// The finished cases, then those the output left unfinished (as crashed): read it once the
    /// command has ended.
    package var results: [XCTestConsoleParser.Result] { lock.withLock { parser.results + parser.unfinished } }
}
