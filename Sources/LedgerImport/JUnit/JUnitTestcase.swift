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
            default: break
            }
        }
    }

    /// Whether it has no child that changes its outcome or attempts: a plain pass.
    var isPlainPass: Bool { problems.isEmpty && skipped == nil && retries.isEmpty }

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
