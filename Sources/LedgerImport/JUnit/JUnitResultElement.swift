/// A child of `<testcase>` that says how it went: `<failure>`, `<error>`, `<skipped>`, or one
/// of Surefire's retry elements (`flakyFailure`, `flakyError`, `rerunFailure`, `rerunError`).
struct JUnitResultElement: Equatable {
    /// Which element it is; one for which ``JUnitElement/isResult`` holds.
    var element: JUnitElement
    var message: String?
    var type: String?
    /// A retry element's own `time`, when the producer writes one.
    var time: String?
    /// The element's text, or a retry element's `<stackTrace>`.
    var text = ""
    /// A retry element's own `<system-out>` and `<system-err>`.
    var output = JUnitOutput()

    init(element: JUnitElement, attributes: [String: String]) {
        self.element = element
        for (name, value) in attributes {
            switch name {
            case "message": message = value
            case "type": type = value
            case "time": time = value
            default: break
            }
        }
    }

    /// Whether the element reports an error (unexpected exception) rather than a failed check.
    var isError: Bool { element == .error || element == .flakyError || element == .rerunError }

    /// Whether the element is a Surefire attempt that failed before a final pass.
    var isFlaky: Bool { element == .flakyFailure || element == .flakyError }

    /// Whether the element is a Surefire rerun that failed again.
    var isRerun: Bool { element == .rerunFailure || element == .rerunError }

    /// Whether the element is one of Surefire's retries, whose text is in `<stackTrace>`.
    var isRetry: Bool { isFlaky || isRerun }
}
