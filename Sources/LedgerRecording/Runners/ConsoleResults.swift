import LedgerCore
import LedgerImport

/// Turns XCTest console results into events, named as `swift test list` names them.
package enum ConsoleResults {
    package static func emit(
        _ results: [XCTestConsoleParser.Result], run: String, names: [String: String], into sink: inout some EventSink
    ) throws {
        var attempts: [String: Int] = [:]
        for result in results {
            let id = names[result.suite + "." + result.name] ?? result.suite + "/" + result.name
            let suite = id.split(separator: "/").first.map(String.init) ?? result.suite
            let attempt = attempts[id, default: 0] + 1
            attempts[id] = attempt
            try sink.consume(
                LedgerRecord(
                    run: run,
                    event: .testStart(
                        .init(at: result.startedAt, test: id, attempt: attempt, suite: suite, name: result.name))))
            var skipReason: String?
            for issue in result.issues {
                if issue.kind == nil {
                    skipReason = issue.message
                    continue
                }
                var issue = issue
                issue.test = id
                issue.attempt = attempt
                try sink.consume(LedgerRecord(run: run, event: .issue(issue)))
            }
            try sink.consume(
                LedgerRecord(
                    run: run,
                    event: .testEnd(
                        .init(
                            at: result.startedAt + result.duration, test: id, attempt: attempt, outcome: result.outcome,
                            duration: result.duration, message: skipReason))))
        }
    }
}
