import Foundation

extension RSpecImporter {
    /// Whether `prefix`, the first bytes of a file (4 KB is plenty), opens an RSpec JSON report:
    /// an object whose first member is `"version"` with a string value, followed by one of the
    /// members RSpec writes next (`messages`, `seed`, `examples`, `summary`); or, as RSpec 3.0 and
    /// 3.1 wrote it without a version, whose first member is `"examples"`, an array that is empty
    /// and followed by `"summary"`, or whose first example opens with a member RSpec writes.
    /// - Parameter prefix: the input's first bytes.
    /// - Returns: `true` when they look like an RSpec JSON report.
    public static func looksLikeRSpec(prefix: Data) -> Bool {
        var scanner = JSONPrefixScanner(prefix)
        guard scanner.take("{"), let first = scanner.string(), scanner.take(":") else { return false }
        if first == "examples" {
            guard scanner.take("[") else { return false }
            if scanner.take("]") { return scanner.take(",") && scanner.string() == "summary" }
            return scanner.take("{")
                && ["id", "description", "full_description", "status", "file_path"].contains(scanner.string())
        }
        guard first == "version", scanner.string() != nil, scanner.take(","), let next = scanner.string()
        else { return false }
        return ["messages", "seed", "examples", "summary", "summary_line"].contains(next)
    }
}
