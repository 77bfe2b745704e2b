import Foundation

extension RSpecImporter {
    /// Whether `prefix`, the first bytes of a file (4 KB is plenty), opens an RSpec JSON report:
    /// an object whose first member is `"version"` with a string value, followed by one of the
    /// members RSpec writes next (`messages`, `seed`, `examples`, `summary`).
    /// - Parameter prefix: the input's first bytes.
    /// - Returns: `true` when they look like an RSpec JSON report.
    public static func looksLikeRSpec(prefix: Data) -> Bool {
        var scanner = JSONPrefixScanner(prefix)
        guard scanner.take("{"), scanner.string() == "version", scanner.take(":"), scanner.string() != nil,
            scanner.take(","), let next = scanner.string()
        else { return false }
        return ["messages", "seed", "examples", "summary", "summary_line"].contains(next)
    }
}
