/// The elements of a JUnit report the importer acts on, told apart once as each one opens;
/// any other element is `nil` where one of these is expected.
enum JUnitElement: String {
    // `testcase` first: the synthesised `init(rawValue:)` tries the cases in order.
    case testcase, testsuite, testsuites, properties, property
    case failure, error, skipped
    case systemOut = "system-out"
    case systemErr = "system-err"
    case flakyFailure, flakyError, rerunFailure, rerunError, stackTrace

    /// Whether it is a child of `<testcase>` that says how the test went: `failure`, `error`,
    /// `skipped` or one of Surefire's retries.
    var isResult: Bool {
        switch self {
        case .failure, .error, .skipped, .flakyFailure, .flakyError, .rerunFailure, .rerunError: true
        default: false
        }
    }
}
