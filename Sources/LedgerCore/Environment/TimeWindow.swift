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
        if let span = duration(text) { return now.timeIntervalSince1970 - span }
        if let date = date(text) { return date }
        throw LedgerInputError(
            source: "--since", problem: "\"\(text)\" is not a duration or a date",
            fix: "use e.g. 14d, 12h, 2w or 2026-11-01")
    }

    /// The time `text` names as the end of something, in seconds since 1970: a duration counts
    /// forward from `now`; a date or time is taken as it is.
    ///
    /// - Parameters:
    ///   - text: the `--until` value.
    ///   - now: the time a duration counts forward from.
    /// - Returns: the end, in seconds since 1970.
    /// - Throws: ``LedgerInputError`` when `text` is neither a duration nor a date.
    public static func end(_ text: String, now: Date = Date()) throws -> Double {
        if let span = duration(text) { return now.timeIntervalSince1970 + span }
        if let date = date(text) { return date }
        throw LedgerInputError(
            source: "--until", problem: "\"\(text)\" is not a duration or a date",
            fix: "use e.g. 14d, 2w or 2026-12-31")
    }

    /// The seconds a budget names: a duration, or a bare non-negative number of seconds.
    public static func seconds(_ text: String) -> Double? {
        Double(text).flatMap { $0 >= 0 ? $0 : nil } ?? duration(text)
    }

    /// The seconds a duration names: a non-negative number followed by `s` seconds, `m`
    /// minutes, `h` hours, `d` days or `w` weeks; `nil` for anything else.
    public static func duration(_ text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
        guard let unit = text.last, let seconds = units[unit], let count = Double(text.dropLast()), count >= 0 else {
            return nil
        }
        return count * seconds
    }

    private static func date(_ text: String) -> Double? {
        if let date = try? Date(text, strategy: .iso8601.year().month().day()) { return date.timeIntervalSince1970 }
        return (try? Date(text, strategy: .iso8601))?.timeIntervalSince1970
    }
}
