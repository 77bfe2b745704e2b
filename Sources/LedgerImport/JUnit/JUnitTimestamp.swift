/// Reads the `timestamp` attributes JUnit producers write: ISO 8601 date-times in several forms.
enum JUnitTimestamp {
    /// Seconds since 1970 for `text`, or `nil` when it is not an ISO 8601 date-time.
    ///
    /// Accepts `T` or a space between date and time, optional fractional seconds of any length
    /// and an optional `Z`, `±HH:MM` or `±HHMM` offset. Without an offset the time is read as
    /// UTC, as Jenkins does (Ant writes local times without a zone; nothing better is known).
    static func parse(_ text: String) -> Double? {
        var scanner = Scanner(bytes: Array(text.utf8))
        scanner.skipSpaces()
        guard let year = scanner.number(digits: 4), scanner.take("-"),
            let month = scanner.number(digits: 2), scanner.take("-"),
            let day = scanner.number(digits: 2), scanner.take("T") || scanner.take(" "),
            let hour = scanner.number(digits: 2), scanner.take(":"),
            let minute = scanner.number(digits: 2)
        else { return nil }
        var seconds = 0.0
        if scanner.take(":") {
            guard let whole = scanner.number(digits: 2) else { return nil }
            seconds = Double(whole)
            if scanner.take(".") || scanner.take(",") {
                guard let fraction = scanner.fraction() else { return nil }
                seconds += fraction
            }
        }
        guard let offset = scanner.zoneOffset() else { return nil }
        scanner.skipSpaces()
        guard scanner.atEnd, (1...12).contains(month), (1...daysIn(month, of: year)).contains(day),
            hour < 24, minute < 60, seconds < 61
        else { return nil }
        let days = daysSince1970(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3_600 + minute * 60 - offset) + seconds
    }

    private static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func skipSpaces() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func number(digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + digits] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += digits
            return value
        }

        mutating func fraction() -> Double? {
            var value = 0.0
            var scale = 0.1
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                value += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            return index > start ? value : nil
        }

        /// The offset east of UTC in seconds: 0 for `Z` or no zone, `nil` for a malformed one.
        mutating func zoneOffset() -> Int? {
            if take("Z") || take("z") { return 0 }
            let sign: Int
            if take("+") {
                sign = 1
            } else if take("-") {
                sign = -1
            } else {
                return 0
            }
            guard let hours = number(digits: 2) else { return nil }
            _ = take(":")
            let minutes = number(digits: 2) ?? 0
            guard hours < 24, minutes < 60 else { return nil }
            return sign * (hours * 3_600 + minutes * 60)
        }
    }
}
