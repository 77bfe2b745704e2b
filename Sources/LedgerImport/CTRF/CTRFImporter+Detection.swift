import Foundation

extension CTRFImporter {
    /// Whether `prefix`, the first bytes of a file, opens a CTRF report: an object whose first
    /// member is `"reportFormat": "CTRF"`, or (older reporters) `"results"` whose first member is
    /// `"tool"`.
    public static func looksLikeCTRF(prefix: Data) -> Bool {
        var scanner = JSONPrefixScanner(prefix)
        guard scanner.take("{"), let first = scanner.string(), scanner.take(":") else { return false }
        switch first {
        case "reportFormat": return scanner.string() == "CTRF"
        case "results": return scanner.take("{") && scanner.string() == "tool"
        default: return false
        }
    }
}
