/// The document `xcrun xcresulttool get test-results tests` writes (Xcode 16 and later), as far
/// as the importer reads it.
struct XCResultDocument: Decodable {
    var devices: [Device]?
    var testPlanConfigurations: [Configuration]?
    var testNodes: [XCResultNode]

    /// A device the tests ran on.
    struct Device: Decodable {
        var deviceName: String?
        var modelName: String?
        var osVersion: String?
    }

    /// A test plan configuration the tests ran in.
    struct Configuration: Decodable {
        var configurationName: String?
    }
}

/// A node of the test tree: a plan, bundle, suite, test case, argument, repetition, failure
/// message…
struct XCResultNode: Decodable {
    /// `Test Plan`, `Unit test bundle`, `UI test bundle`, `Test Suite`, `Test Case`, `Arguments`,
    /// `Repetition`, `Failure Message`, `Device`, …
    var nodeType: String
    var name: String?
    /// A test case's `Suite[/Nested]/testFoo()`; a repetition's `1`, `2`…
    var nodeIdentifier: String?
    /// `Passed`, `Failed`, `Skipped`, `Expected Failure` or `unknown`.
    var result: String?
    /// Localized and rounded: `0,012s`, `6s`, `1m 5s`.
    var duration: String?
    /// Xcode 26 and later.
    var durationInSeconds: Double?
    var details: String?
    var tags: [String]?
    var children: [XCResultNode]?

    /// The children of type `type`.
    func children(ofType type: String) -> [XCResultNode] {
        (children ?? []).filter { $0.nodeType == type }
    }

    /// The node's duration in seconds: `durationInSeconds`, else the `duration` text read.
    var seconds: Double? {
        if let durationInSeconds, durationInSeconds.isFinite, durationInSeconds >= 0 { return durationInSeconds }
        return duration.flatMap(XCResultDuration.seconds)
    }
}
