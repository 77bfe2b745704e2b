import Foundation

/// Imports a TAP file (TAP 12, 13 or 14: node:test, node-tap, Test::More and `prove -v`, Bacon's
/// `-p`, …) through ``TAPParser``; a missing plan, a bail-out or an unclosed YAML block become
/// warnings naming the input.
public typealias TAPImporter = StreamingImporter<TAPParser>

extension TAPImporter {
    /// Whether `prefix`, the first bytes of a file (4 KB is plenty), looks like TAP: after an
    /// optional byte order mark, blank lines, `#` comments and a `prove -v` file header, the
    /// first line is `TAP version N` (any case), a plan `1..N`, a test point `ok 1`/`not ok 1`
    /// (numbered, or followed by ` - `, or alone) or `Bail out!`. After other lines (what the code
    /// under test printed to the same output, as under Mocha's TAP reporter), only `TAP version N` or a
    /// plan counts.
    /// - Parameter prefix: the input's first bytes.
    /// - Returns: `true` when they look like TAP.
    public static func looksLikeTAP(prefix: Data) -> Bool {
        var bytes = prefix
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let lines = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).prefix(20)
        var afterOther = false
        for line in lines {
            let content = TAPText.trimmed(Substring(line))
            switch TAPLine(content, atTop: TAPText.indentation(of: Substring(line)) == 0) {
            case .blank, .comment, .subtest, .proveHeader, .pragma:
                continue
            case .version, .plan:
                return true
            case .bailOut:
                return !afterOther
            case .testPoint(let point):
                if afterOther { continue }
                return point.number != nil || content == "ok" || content == "not ok" || content.contains(" - ")
            case .other:
                afterOther = true
            }
        }
        return false
    }
}
