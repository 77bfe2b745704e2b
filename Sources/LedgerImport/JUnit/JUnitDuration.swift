import Foundation

/// Reads the `time` attributes of suites, testcases and reruns: seconds as decimal text.
enum JUnitDuration {
    /// The longest duration kept, one year, as Jenkins clamps it; longer values are noise.
    static let maximum = 365.0 * 86_400

    /// Seconds for `text`: commas (thousands separators, legal in junit-10.xsd) are dropped,
    /// missing or unreadable text is 0, and the result is clamped to 0...``maximum``.
    static func parse(_ text: String?) -> Double {
        guard let text else { return 0 }
        let digits = text.filter { $0 != "," }.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let value = Double(digits), value.isFinite else { return 0 }
        return min(max(value, 0), maximum)
    }
}
