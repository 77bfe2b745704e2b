import Foundation

extension BaconOutputParser {
    /// Whether `prefix`, the first bytes of an input (4 KB is plenty), looks like Bacon's text
    /// output. Among its first 200 lines there is a summary line, a `Finished in X seconds.`
    /// line, or a SpecDox spec line (`  - requirement`) after a context's name at the start of a
    /// line; or its first line is a Knock line (`ok - …`, `not ok - …`: unnumbered, which TAP's
    /// test points are not in practice) and no line is a TAP version or plan.
    /// - Parameter prefix: the input's first bytes.
    /// - Returns: `true` when they look like Bacon's text output.
    public static func looksLikeBacon(prefix: Data) -> Bool {
        var bytes = prefix
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let text = String(decoding: bytes, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).prefix(200).map {
            BaconText.withoutEscapes($0.hasSuffix("\r") ? $0.dropLast() : $0)
        }
        guard let first = lines.first(where: { !$0.allSatisfy(\.isWhitespace) }) else { return false }
        if case .knock = BaconLine(first) {
            return !lines.contains { isTAPHeader($0) }
        }
        guard !first.hasPrefix(" "), !"<{[#".contains(first.first ?? " "), !isTAPHeader(first) else {
            return false
        }
        return lines.contains { line in
            switch BaconLine(line) {
            case .spec, .summary, .timing: true
            default: false
            }
        }
    }

    /// `TAP version N`, or a plan `1..N`.
    private static func isTAPHeader(_ line: Substring) -> Bool {
        if line.lowercased().hasPrefix("tap version") { return true }
        guard let dots = BaconText.firstRange(of: "..", in: line) else { return false }
        let before = line[..<dots.lowerBound]
        return !before.isEmpty && before.allSatisfy(\.isNumber) && line[dots.upperBound...].first?.isNumber == true
    }
}
