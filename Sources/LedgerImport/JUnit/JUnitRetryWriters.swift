/// The tools known, from their sources, to write each retry of a test as one more `<testcase>` of
/// the same classname and name, and how their files show it before the first testcase:
/// - `go test` through gotestsum (`--rerun-fails`, `-count`) or go-junit-report 1.x: a suite
///   property `go.version`;
/// - xcpretty (`-retry-tests-on-failure`, `-test-iterations`): a root `<testsuites>` named after
///   the test bundle, `….xctest`;
/// - xcbeautify, likewise: a root `<testsuites>` with exactly `name`, `tests` and `failures`.
///
/// Both Xcode console reporters also write one failing testcase per failed assertion of an
/// attempt: read as retries, they are failing attempts of the one test they belong to.
/// fastlane trainer marks each repetition itself (``JUnitTestcase/isMarkedRetry``).
enum JUnitRetryWriters {
    /// Whether the document's root element shows one of these tools.
    static func opens(root: JUnitElement, attributes: [String: String]) -> Bool {
        guard root == .testsuites, let name = attributes["name"] else { return false }
        return name.hasSuffix(".xctest") || Set(attributes.keys) == ["name", "tests", "failures"]
    }

    /// Whether a suite property of this name shows one of these tools.
    static func marks(suiteProperty name: String) -> Bool { name == "go.version" }
}
