/// One `<testcase>` as read, before it becomes events: attributes and the children that matter.
///
/// Children are kept up to ``maximumKept`` of each kind, so a hostile testcase with millions
/// of `<failure>` elements cannot exhaust memory; the number of failures and errors left out
/// is counted.
struct JUnitTestcase {
    /// The most failures and errors, retries or properties kept.
    static let maximumKept = 1_000

    /// The attributes the import reads; the others are ignored.
    var classname, name, time, file, line, timestamp: String?
    /// googletest's `status` (`run`, `notrun`) and `result` (`completed`, `skipped`, `suppressed`);
    /// other tools write `status="disabled"` or `"skipped"`.
    var status, result: String?
    /// `<failure>` and `<error>`, in document order.
    private(set) var problems: [JUnitResultElement] = []
    /// How many failures and errors were left out.
    private(set) var problemsLeftOut = 0
    /// Whether some `<failure>` was seen (it decides the outcome over `<error>`).
    private(set) var hasFailure = false
    /// The first `<skipped>`.
    private(set) var skipped: JUnitResultElement?
    /// Surefire's `flakyFailure`/`flakyError` and `rerunFailure`/`rerunError`, in order.
    private(set) var retries: [JUnitResultElement] = []
    var output = JUnitOutput()
    /// `<properties>` of the testcase (pytest `record_property`, fastlane trainer), in order.
    private(set) var properties: [(name: String, value: String)] = []

    init(attributes: [String: String]) {
        for (key, value) in attributes {
            switch key {
            case "classname": classname = value
            case "name": name = value
            case "time": time = value
            case "file": file = value
            case "line": line = value
            case "timestamp": timestamp = value
            case "status": status = value
            case "result": result = value
            default: break
            }
        }
    }

    /// Whether it has no child or attribute that changes its outcome or attempts: a plain pass.
    var isPlainPass: Bool { problems.isEmpty && skipped == nil && retries.isEmpty && !isSkippedByAttribute }

    /// Whether an attribute alone says it did not run: `status` `disabled`, `skipped` or `notrun`,
    /// or `result` `skipped` or `suppressed`, in any case.
    var isSkippedByAttribute: Bool {
        if let status, ["disabled", "skipped", "notrun"].contains(status.lowercased()) { return true }
        if let result, ["skipped", "suppressed"].contains(result.lowercased()) { return true }
        return false
    }

    /// Whether it says it is one of several runs of its test: trainer's `repetition` property.
    var isMarkedRetry: Bool { properties.contains { $0.name == "repetition" } }

    /// Values of trainer's `tag1`, `tag2`, … properties, in document order.
    var tags: [String] {
        properties.compactMap { property in
            let digits = property.name.dropFirst(3)
            guard property.name.hasPrefix("tag"), !digits.isEmpty,
                digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber)
            else { return nil }
            return property.value
        }
    }

    /// Keeps a finished result or retry element.
    mutating func add(_ element: JUnitResultElement) {
        if element.isRetry {
            if retries.count < Self.maximumKept { retries.append(element) }
        } else if element.element == .skipped {
            skipped = skipped ?? element
        } else {
            hasFailure = hasFailure || element.element == .failure
            if problems.count < Self.maximumKept {
                problems.append(element)
            } else {
                problemsLeftOut += 1
            }
        }
    }

    /// Keeps a property of the testcase.
    mutating func addProperty(name: String, value: String) {
        if properties.count < Self.maximumKept { properties.append((name, value)) }
    }
}
