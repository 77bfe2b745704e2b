import Foundation

extension XCResultImporter {
    /// Whether `prefix`, the first bytes of a file (4 KB is plenty), opens `xcresulttool get
    /// test-results tests` JSON: an object whose first member is `devices`, `testNodes` or
    /// `testPlanConfigurations` (the tool writes its keys sorted), with one of the tool's own
    /// words (`deviceId`, `nodeType`, `configurationId`, `testNodes`) in the prefix.
    /// - Parameter prefix: the input's first bytes.
    /// - Returns: `true` when they look like `xcresulttool` test results.
    public static func looksLikeXCResult(prefix: Data) -> Bool {
        var scanner = JSONPrefixScanner(prefix)
        guard scanner.take("{"), let first = scanner.string(),
            ["devices", "testNodes", "testPlanConfigurations"].contains(first)
        else { return false }
        let text = String(decoding: prefix, as: UTF8.self)
        return ["\"deviceId\"", "\"nodeType\"", "\"configurationId\"", "\"testNodes\""].contains {
            text.contains($0)
        }
    }
}
