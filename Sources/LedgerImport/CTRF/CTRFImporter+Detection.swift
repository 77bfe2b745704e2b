import Foundation

extension CTRFImporter {
    /// Whether `prefix`, the first bytes of a file, opens a CTRF report: an object with the member
    /// `"reportFormat": "CTRF"` anywhere in the prefix (writers order members differently), or, as
    /// older reporters write, whose first member is `"results"` with `"tool"` first in it.
    public static func looksLikeCTRF(prefix: Data) -> Bool {
        var scanner = JSONPrefixScanner(prefix)
        guard scanner.take("{") else { return false }
        if scanner.string() == "results", scanner.take(":"), scanner.take("{"), scanner.string() == "tool" {
            return true
        }
        let text = String(decoding: prefix, as: UTF8.self)
        return text.range(of: #""reportFormat"\s*:\s*"CTRF""#, options: .regularExpression) != nil
    }
}
