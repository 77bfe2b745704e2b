/// Reads the localized durations of `xcresulttool`: `0,012s` (decimal comma), `6s`, `1m 5s`,
/// `2h 3m 4s`, `1d 2h`, `12ms`.
enum XCResultDuration {
    /// The seconds `text` stands for; `nil` when it is not a duration.
    static func seconds(_ text: String) -> Double? {
        let parts = text.split(whereSeparator: \.isWhitespace)
        guard !parts.isEmpty else { return nil }
        var total = 0.0
        for part in parts {
            let number = part.prefix { $0.isASCII && ($0.isNumber || $0 == "," || $0 == ".") }
            guard let value = Double(number.replacingOccurrences(of: ",", with: ".")) else { return nil }
            switch part.dropFirst(number.count) {
            case "d": total += value * 86_400
            case "h": total += value * 3_600
            case "m", "min": total += value * 60
            case "s": total += value
            case "ms": total += value / 1_000
            default: return nil
            }
        }
        return total.isFinite ? total : nil
    }
}

extension Substring {
    /// The text with every `target` replaced by `replacement`.
    fileprivate func replacingOccurrences(of target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
