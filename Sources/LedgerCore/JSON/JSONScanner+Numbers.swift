extension JSONScanner {
    /// Reads the number at the cursor: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func scanNumber() throws(JSONError) -> JSONSpan {
        let start = offset
        var index = offset
        if bytes[index] == ASCII.minus { index += 1 }
        guard index < bytes.count else { throw JSONError(.malformedNumber, at: start) }
        switch bytes[index] {
        case ASCII.zero:
            index += 1
            if index < bytes.count, Self.isDigit(bytes[index]) { throw JSONError(.leadingZero, at: start) }
        case ASCII.one...ASCII.nine:
            index = skipDigits(from: index)
        default:
            throw JSONError(.malformedNumber, at: start)
        }
        var isInteger = true
        if index < bytes.count, bytes[index] == ASCII.dot {
            isInteger = false
            index = try requireDigits(from: index + 1, number: start)
        }
        if index < bytes.count, bytes[index] | 0x20 == ASCII.e {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == ASCII.plus || bytes[index] == ASCII.minus { index += 1 }
            index = try requireDigits(from: index, number: start)
        }
        offset = index
        return JSONSpan(kind: .number, start: start, end: index, isInteger: isInteger)
    }

    /// The value of a number span, correctly rounded; `nil` when it overflows a `Double`, or
    /// underflows to zero while not zero, both of which Foundation's `JSONDecoder` refuses.
    func double(_ span: JSONSpan) -> Double? {
        let value = roundedDouble(span)
        guard value.isFinite, value != 0 || !hasNonZeroDigit(span) else { return nil }
        return value
    }

    /// The value of a number span as an `Int`, as Foundation's `JSONDecoder` reads one: an integer
    /// exactly; any other number through a `Double` that must be whole, so `1.0` and `1e2` pass
    /// and `1.5` does not. `nil` when there is no such `Int`.
    func int(_ span: JSONSpan) -> Int? {
        if span.isInteger { return exactInteger(span) }
        let value = roundedDouble(span)
        guard value > -0x1p63, value < 0x1p63, value.rounded(.towardZero) == value else { return nil }
        return Int(value)
    }

    /// The correctly rounded value: exactly computed for up to 19 significant digits times 10^±27
    /// (timestamps and durations), the standard library's conversion otherwise.
    private func roundedDouble(_ span: JSONSpan) -> Double {
        var index = span.start
        let negative = bytes[index] == ASCII.minus
        if negative { index += 1 }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var scale = 0
        var inFraction = false
        while index < span.end {
            let byte = bytes[index]
            if byte == ASCII.dot {
                inFraction = true
            } else if Self.isDigit(byte) {
                if mantissa != 0 || byte != ASCII.zero {
                    significantDigits += 1
                    guard significantDigits <= 19 else { return slowDouble(span) }
                    mantissa = mantissa * 10 + UInt64(byte - ASCII.zero)
                }
                if inFraction { scale -= 1 }
            } else {
                break
            }
            index += 1
        }
        if index < span.end { scale += exponent(from: index + 1, to: span.end) }
        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        let value: Double
        if mantissa <= 1 << 53, (-22...22).contains(scale) {
            // Clinger: both operands are exact, so the one rounding is the right one.
            value = scale < 0 ? Double(mantissa) / Self.powersOfTen[-scale] : Double(mantissa) * Self.powersOfTen[scale]
        } else if (-27...27).contains(scale) {
            value = Self.exactlyRounded(mantissa, timesTenToThe: scale)
        } else {
            return slowDouble(span)
        }
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// 5^0 through 5^27, the powers of five a `UInt64` holds.
    private static let powersOfFive: [UInt64] = (0...27).reduce(into: []) { powers, exponent in
        powers.append(exponent == 0 ? 1 : powers[exponent - 1] * 5)
    }

    /// `mantissa` × 10^`scale`, correctly rounded, for |`scale`| ≤ 27: as 10^k = 5^k × 2^k and 5^27
    /// fits a word, the product or a quotient of at least 65 bits (with whether a remainder was
    /// left) is computed exactly in integers, then rounded once.
    private static func exactlyRounded(_ mantissa: UInt64, timesTenToThe scale: Int) -> Double {
        if scale >= 0 {
            let (high, low) = mantissa.multipliedFullWidth(by: powersOfFive[scale])
            return rounded(high: high, low: low, inexact: false, exponent: scale)
        }
        let divisor = powersOfFive[-scale]
        let shift = mantissa.leadingZeroBitCount
        let numerator = mantissa << shift
        let (high, remainder) = numerator.quotientAndRemainder(dividingBy: divisor)
        let (low, rest) = divisor.dividingFullWidth((remainder, 0))
        return rounded(high: high, low: low, inexact: rest != 0, exponent: scale - 64 - shift)
    }

    /// (`high` × 2^64 + `low` + a bit more when `inexact`) × 2^`exponent`, rounded half to even.
    private static func rounded(high: UInt64, low: UInt64, inexact: Bool, exponent: Int) -> Double {
        var inexact = inexact
        let top: UInt64
        var exponent = exponent
        if high != 0 {
            let shift = high.leadingZeroBitCount
            top = shift == 0 ? high : high << shift | low >> (64 - shift)
            inexact = inexact || low << shift != 0
            exponent += 64 - shift
        } else {
            let shift = low.leadingZeroBitCount
            top = low << shift
            exponent -= shift
        }
        // `top` has its high bit set: keep 53 bits, round on the 11 below and anything inexact.
        var significand = top >> 11
        let dropped = top & 0x7FF
        if dropped > 0x400 || (dropped == 0x400 && (inexact || significand & 1 == 1)) { significand += 1 }
        return Double(sign: .plus, exponent: exponent + 11, significand: Double(significand))
    }

    private func slowDouble(_ span: JSONSpan) -> Double {
        Double(String(decoding: contents(span), as: UTF8.self)) ?? .nan
    }

    /// The exponent whose digits (after `e`, maybe signed) run from `start`, kept within ±100,000
    /// so that absurd exponents cannot overflow.
    private func exponent(from start: Int, to end: Int) -> Int {
        var index = start
        let negative = bytes[index] == ASCII.minus
        if bytes[index] == ASCII.minus || bytes[index] == ASCII.plus { index += 1 }
        var value = 0
        while index < end {
            value = min(value * 10 + Int(bytes[index] - ASCII.zero), 100_000)
            index += 1
        }
        return negative ? -value : value
    }

    private func hasNonZeroDigit(_ span: JSONSpan) -> Bool {
        for index in span.start..<span.end {
            switch bytes[index] {
            case ASCII.one...ASCII.nine: return true
            case ASCII.e, ASCII.upperE: return false
            default: continue
            }
        }
        return false
    }

    private func exactInteger(_ span: JSONSpan) -> Int? {
        var index = span.start
        let negative = bytes[index] == ASCII.minus
        if negative { index += 1 }
        var value = 0
        while index < span.end {
            let digit = Int(bytes[index] - ASCII.zero)
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowedAgain) =
                negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflowed, !overflowedAgain else { return nil }
            value = next
            index += 1
        }
        return value
    }

    private func skipDigits(from start: Int) -> Int {
        var index = start
        while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        return index
    }

    private func requireDigits(from start: Int, number: Int) throws(JSONError) -> Int {
        let end = skipDigits(from: start)
        guard end > start else { throw JSONError(.malformedNumber, at: number) }
        return end
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte &- ASCII.zero < 10 }
}
