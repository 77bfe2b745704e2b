import Foundation

/// Parses `--since` values: `14d`, `12h`, `2w`, `30m`, or a date `2026-11-01`.
public enum TimeWindow {
    /// The time `text` names, in seconds since 1970.
    ///
    /// A duration (a non-negative number followed by `m` minutes, `h` hours, `d` days or `w` weeks)
    /// counts back from `now`; a date (`2026-11-01`, midnight UTC) or an ISO 8601 date and time is
    /// taken as it is.
    ///
    /// - Parameters:
    ///   - text: the `--since` value.
    ///   - now: the time a duration counts back from.
    /// - Returns: the start of the window, in seconds since 1970.
    /// - Throws: ``LedgerInputError`` when `text` is neither a duration nor a date.
    public static func start(_ text: String, now: Date = Date()) throws -> Double {
        let units: [Character: Double] = ["m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
        if let unit = text.last, let seconds = units[unit], let count = Double(text.dropLast()), count >= 0 {
            return now.timeIntervalSince1970 - count * seconds
        }
        if let date = try? Date(text, strategy: .iso8601.year().month().day()) {
            return date.timeIntervalSince1970
        }
        if let date = try? Date(text, strategy: .iso8601) { return date.timeIntervalSince1970 }
        throw LedgerInputError(
            source: "--since", problem: "\"\(text)\" is not a duration or a date",
            fix: "use e.g. 14d, 12h, 2w or 2026-11-01")
    }
}
