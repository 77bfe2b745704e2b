import Foundation
import LedgerImport

/// Collects XCTest console results from the two output threads.
final class ConsoleCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var parser = XCTestConsoleParser()

    func consume(_ line: Substring) {
        let now = Date().timeIntervalSince1970
        lock.withLock { parser.consume(line, now: now) }
    }

    var results: [XCTestConsoleParser.Result] { lock.withLock { parser.results } }
}
