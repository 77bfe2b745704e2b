/// A child of `<testcase>` that says how it went: `<failure>`, `<error>`, `<skipped>`, or one
/// of Surefire's retry elements (`flakyFailure`, `flakyError`, `rerunFailure`, `rerunError`).
struct JUnitResultElement: Equatable {
    /// The element's name, e.g. `failure` or `rerunError`.
    var element: String
    var message: String?
    var type: String?
    /// A retry element's own `time`, when the producer writes one.
    var time: String?
    /// The element's text, or a retry element's `<stackTrace>`.
    var text = ""
    /// A retry element's own `<system-out>` and `<system-err>`.
    var output = JUnitOutput()

    init(element: String, attributes: [String: String]) {
        self.element = element
        self.message = attributes["message"]
        self.type = attributes["type"]
        self.time = attributes["time"]
    }

    /// Whether the element reports an error (unexpected exception) rather than a failed check.
    var isError: Bool { element.hasSuffix("rror") }

    /// Whether the element is a Surefire attempt that failed before a final pass.
    var isFlaky: Bool { element == "flakyFailure" || element == "flakyError" }

    /// Whether the element is a Surefire rerun that failed again.
    var isRerun: Bool { element == "rerunFailure" || element == "rerunError" }

    /// Whether the element is one of Surefire's retries, whose text is in `<stackTrace>`.
    var isRetry: Bool { isFlaky || isRerun }

    /// The names of the elements this type stands for.
    static let names: Set<String> = [
        "failure", "error", "skipped", "flakyFailure", "flakyError", "rerunFailure", "rerunError",
    ]
}
