import LedgerCore

/// A test read from the tree: one `Test Case`, or one of its `Arguments` (Swift Testing's
/// parameterized cases, XCTest's launch configurations), with its attempts.
struct XCResultTest {
    var start: LedgerEvent.TestStart
    var attempts: [XCResultAttempt]
    /// The test case's `nodeIdentifier`: what `xcresulttool get test-results activities --test-id` takes.
    var identifier: String?
    /// The argument's name, for one argument of a parameterized test.
    var argument: String?

    /// Where a test case sits: its bundle and the suite names above it.
    struct Place {
        var bundle: String?
        var isUIBundle = false
        var suites: [String] = []
    }

    /// The tests of the test case `node` in `place`: one, or one per argument.
    ///
    /// The id is `<bundle>.<identifier path>/<function>`, from `nodeIdentifier`
    /// (`FastlaneTrainerTests/UserTests/testLogin()` in bundle `AppTests` →
    /// `AppTests.FastlaneTrainerTests/UserTests/testLogin()`), the way Swift Testing ids read
    /// elsewhere; without an identifier, the suite names and the node's name. An argument `a`
    /// replaces what the function's parentheses hold (`testFlag(_:)` → `testFlag("beta")`), or
    /// follows in parentheses (`Flag test ("beta")`), as fastlane trainer names them.
    static func tests(of node: XCResultNode, in place: Place) -> [XCResultTest] {
        let name = node.name ?? node.nodeIdentifier ?? "test"
        var containers = place.suites
        var function = name
        if let identifier = node.nodeIdentifier, !identifier.isEmpty {
            let parts = identifier.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            containers = Array(parts.dropLast())
            function = parts.last ?? name
        }
        let path = containers.joined(separator: "/")
        let suite = [place.bundle, path.isEmpty ? nil : path].compactMap { $0 }.joined(separator: ".")
        let tags = (node.tags ?? []).map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 }.sorted()
        let layer = tags.compactMap(Layer.init(rawValue:)).max() ?? (place.isUIBundle ? .ui : nil)
        let start = LedgerEvent.TestStart(
            at: 0, test: (suite.isEmpty ? "xcresult" : suite) + "/" + function, suite: suite.isEmpty ? nil : suite,
            name: name, layer: layer, tags: tags.isEmpty ? nil : tags)
        let arguments = node.children(ofType: "Arguments")
        guard !arguments.isEmpty else {
            let attempts = XCResultAttempt.attempts(of: node, parentResult: node.result, fallbackDuration: nil)
            return [XCResultTest(start: start, attempts: attempts, identifier: node.nodeIdentifier)]
        }
        let share = node.seconds.map { $0 / Double(arguments.count) }
        return arguments.map { argument in
            var test = start
            let value = argument.name ?? ""
            test.test = (suite.isEmpty ? "xcresult" : suite) + "/" + withArgument(function, value)
            test.name = withArgument(name, value)
            let attempts = XCResultAttempt.attempts(of: argument, parentResult: node.result, fallbackDuration: share)
            return XCResultTest(start: test, attempts: attempts, identifier: node.nodeIdentifier, argument: value)
        }
    }

    /// `name` with `argument` in its parentheses, or after it in parentheses.
    static func withArgument(_ name: String, _ argument: String) -> String {
        guard let open = name.firstIndex(of: "("), let close = name.lastIndex(of: ")"), open < close else {
            return "\(name) (\(argument))"
        }
        return "\(name[..<open])(\(argument))\(name[name.index(after: close)...])"
    }
}
