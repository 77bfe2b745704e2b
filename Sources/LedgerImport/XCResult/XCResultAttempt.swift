import LedgerCore

/// One attempt of an xcresult test: a `Repetition` (a retry or an iteration), or the test case
/// or argument node itself when it ran once.
struct XCResultAttempt {
    var outcome: Outcome
    var duration: Double
    var issues: [XCResultFailureMessage]
    /// `test.end`'s message: the skip reason or the expected failure.
    var message: String?

    /// The attempt `node` stands for; `parentResult` and `fallbackDuration` stand in for what it
    /// does not say.
    init(_ node: XCResultNode, parentResult: String?, fallbackDuration: Double?) {
        let outcome = Self.outcome(node.result) ?? Self.outcome(parentResult)
        self.outcome = outcome ?? .error
        duration = node.seconds ?? fallbackDuration ?? 0
        let messages = node.children(ofType: "Failure Message").compactMap(\.name).map(XCResultFailureMessage.init)
        issues = []
        switch self.outcome {
        case .failed:
            issues = messages.isEmpty ? [XCResultFailureMessage(node.details ?? "Failed")] : messages
        case .error:
            issues = [XCResultFailureMessage("xcresulttool gave no result (\(node.result ?? "none"))")] + messages
        case .skipped, .expectedFailure:
            message = messages.first?.text
        case .passed, .crashed:
            break
        }
    }

    /// `Passed`, `Failed`, `Skipped` and `Expected Failure`; `nil` for anything else.
    static func outcome(_ result: String?) -> Outcome? {
        switch result {
        case "Passed": .passed
        case "Failed": .failed
        case "Skipped": .skipped
        case "Expected Failure": .expectedFailure
        default: nil
        }
    }

    /// The attempts of `node`, a test case without arguments or one argument: its repetitions,
    /// else itself. A repetition without duration gets an equal share of `node`'s, and `node`
    /// without one gets `fallbackDuration`.
    static func attempts(of node: XCResultNode, parentResult: String?, fallbackDuration: Double?) -> [XCResultAttempt] {
        let repetitions = (node.children ?? []).filter { $0.nodeType == "Repetition" || $0.nodeType == "Test Case Run" }
        let total = node.seconds ?? fallbackDuration
        guard !repetitions.isEmpty else {
            return [XCResultAttempt(node, parentResult: parentResult, fallbackDuration: total)]
        }
        let share = total.map { $0 / Double(repetitions.count) }
        return repetitions.map {
            XCResultAttempt($0, parentResult: node.result ?? parentResult, fallbackDuration: share)
        }
    }
}
