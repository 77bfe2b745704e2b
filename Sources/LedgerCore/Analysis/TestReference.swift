import Foundation

/// A test as a person or agent names it: its id, or the address of its page on a team's
/// dashboard (`https://ledger.example/projects/Feed/tests/FeedTests.FeedTests/testRefresh?run=…`),
/// which names the test and perhaps a run.
public struct TestReference: Hashable, Sendable {
    /// The test's stable id.
    public var test: String
    /// The project, when an address named it.
    public var project: String?
    /// The run, when an address named one.
    public var run: String?

    /// The test an id or a dashboard address names; an id is taken as it is.
    /// - Parameter text: a test id, or an `http(s)` address of a test's page.
    public init(_ text: String) {
        test = text
        guard text.hasPrefix("http://") || text.hasPrefix("https://"), let components = URLComponents(string: text)
        else { return }
        // The encoded path keeps a test id's own `%2F` apart from the path's slashes.
        let parts = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false).map(
            String.init)
        guard let projects = parts.firstIndex(of: "projects"), parts.count > projects + 3,
            parts[projects + 2] == "tests"
        else { return }
        let decoded = parts[(projects + 3)...].map { $0.removingPercentEncoding ?? $0 }
        guard !decoded.joined().isEmpty else { return }
        test = decoded.joined(separator: "/")
        project = parts[projects + 1].removingPercentEncoding
        run = components.queryItems?.first { $0.name == "run" }?.value.flatMap { $0.isEmpty ? nil : $0 }
    }
}
