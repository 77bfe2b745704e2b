/// A file `swift test --xunit-output` wrote, which loses what the event stream keeps: SwiftPM's
/// own XCTest file writes a skipped test as passed, and Swift Testing's keeps one testcase per
/// test function, the cases of a parameterized test and repeated iterations merged into it.
/// Both are one `<testsuite name="TestResults" errors="0">` in a `<testsuites>`; only Swift
/// Testing's has a `skipped` attribute.
enum SwiftPMXUnitFile {
    case xctest, swiftTesting

    /// The kind of file a suite at the top of a `<testsuites>` shows, if either.
    init?(suiteAttributes attributes: [String: String]) {
        guard attributes["name"] == "TestResults", attributes["errors"] == "0" else { return nil }
        self = attributes["skipped"] == nil ? .xctest : .swiftTesting
    }

    /// What ingest says of such a file, and where to find what it lost.
    var warning: String {
        switch self {
        case .xctest:
            "SwiftPM writes a skipped XCTest test into this file as passed, so skips read as passes; "
                + "`testledger record -- swift test` records them as skips"
        case .swiftTesting:
            "Swift Testing writes one testcase per test function into this file, merging a parameterized "
                + "test's cases and repeated iterations; `swift test --event-stream-output-path FILE` keeps each"
        }
    }
}
