import Foundation

/// Reads the `time` attributes of suites, testcases and reruns: seconds as decimal text.
enum JUnitDuration {
    /// The longest duration kept, one year, as Jenkins clamps it; longer values are noise.
    static let maximum = 365.0 * 86_400

    /// Seconds for `text`: commas (thousands separators, legal in junit-10.xsd) are dropped,
    /// missing or unreadable text is 0, and the result is clamped to 0...``maximum``.
    static func parse(_ text: String?) -> Double {
        guard let text else { return 0 }
        let value: Double
        if let plain = plainDecimal(text) {
            value = plain
        } else {
            let digits = text.filter { $0 != "," }.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let parsed = Double(digits), parsed.isFinite else { return 0 }
            value = parsed
        }
        return min(max(value, 0), maximum)
    }

    /// The value of `text` when it is what nearly every producer writes, digits with at most
    /// one `.` (`0.002`, `16.05245804786682`), and few enough digits to be read exactly;
    /// `nil` for anything else, which the general path reads.
    ///
    /// A decimal of at most 15 digits is an integer below 2⁵³ divided by a power of ten up to
    /// 10²²: both exact in a `Double`, so one division rounds it correctly, as `strtod` does.
    private static func plainDecimal(_ text: String) -> Double? {
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var sawPoint = false
        for byte in text.utf8 {
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                // Leading zeros do not count towards the 15 digits.
                if mantissa != 0 || byte != UInt8(ascii: "0") { digits += 1 }
                guard digits <= 15 else { return nil }
                mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                if sawPoint { fractionDigits += 1 }
            } else if byte == UInt8(ascii: "."), !sawPoint {
                sawPoint = true
            } else {
                return nil
            }
        }
        // "" and "." are not numbers.
        guard fractionDigits <= 22, text.utf8.count > (sawPoint ? 1 : 0) else { return nil }
        return Double(mantissa) / powersOfTen[fractionDigits]
    }

    /// 10⁰ through 10²², every one exact in a `Double`.
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }
}
