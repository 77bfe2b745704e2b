/// Small text helpers for Bacon's output, working on UTF-8 so long lines stay cheap.
enum BaconText {
    /// How many spaces `line` starts with.
    static func indentation(of line: Substring) -> Int {
        line.utf8.prefix { $0 == UInt8(ascii: " ") }.count
    }

    /// `line` without terminal colour codes (`ESC [ … m`), as RubyMotion's colorized output has.
    static func withoutEscapes(_ line: Substring) -> Substring {
        guard line.utf8.contains(0x1B) else { return line }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(line.utf8.count)
        var iterator = line.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == 0x1B else {
                bytes.append(byte)
                continue
            }
            guard iterator.next() == UInt8(ascii: "[") else { continue }
            while let code = iterator.next(), !(0x40...0x7E).contains(code) {}
        }
        return Substring(String(decoding: bytes, as: UTF8.self))
    }

    /// The first place `needle` occurs in `text`.
    static func firstRange(of needle: String, in text: Substring) -> Range<String.Index>? {
        let pattern = Array(needle.utf8)
        let bytes = text.utf8
        guard let first = pattern.first else { return nil }
        var index = bytes.startIndex
        while let start = bytes[index...].firstIndex(of: first) {
            if bytes[start...].starts(with: pattern) {
                return start..<bytes.index(start, offsetBy: pattern.count)
            }
            index = bytes.index(after: start)
        }
        return nil
    }

    /// Every place `needle` occurs in `text`, the last first.
    static func rangesFromEnd(of needle: String, in text: Substring) -> BackwardMatches {
        BackwardMatches(text: text, pattern: Array(needle.utf8))
    }

    /// The places a pattern occurs, from the end of a text backwards.
    struct BackwardMatches: Sequence, IteratorProtocol {
        let text: Substring
        let pattern: [UInt8]
        var end: String.Index?

        init(text: Substring, pattern: [UInt8]) {
            self.text = text
            self.pattern = pattern
            end = text.endIndex
        }

        mutating func next() -> Range<String.Index>? {
            let bytes = text.utf8
            guard let last = pattern.last, let limit = end else { return nil }
            var searchEnd = limit
            while let found = bytes[..<searchEnd].lastIndex(of: last) {
                if let start = bytes.index(found, offsetBy: 1 - pattern.count, limitedBy: bytes.startIndex),
                    bytes[start...].starts(with: pattern)
                {
                    end = start
                    return start..<bytes.index(after: found)
                }
                searchEnd = found
            }
            end = nil
            return nil
        }
    }

    /// `text` with every run of digits replaced by `#`, and those numbers: `16 tests, 2 errors`
    /// gives `# tests, # errors` and `[16, 2]`.
    static func numbers(in text: Substring) -> (template: String, values: [Int]) {
        var template = ""
        var values: [Int] = []
        var digits = ""
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
                continue
            }
            if !digits.isEmpty {
                template.append("#")
                values.append(Int(digits) ?? Int.max)
                digits = ""
            }
            template.append(character)
        }
        if !digits.isEmpty {
            template.append("#")
            values.append(Int(digits) ?? Int.max)
        }
        return (template, values)
    }

    /// The file and line a backtrace frame starts with: `spec/a_spec.rb:7:in …` gives
    /// `spec/a_spec.rb` and 7.
    /// The spec an ErrorLog entry's first frame names, `…: <context> - <description>` after the
    /// frame's own `file:line` and `:in '…'`; `nil` when it names none.
    static func spec(inFirstFrame frame: Substring) -> (context: Substring, description: Substring)? {
        guard let location = location(inFrame: frame) else { return nil }
        var rest = frame.dropFirst(location.file.count + 1).drop { $0.isNumber }
        if rest.hasPrefix(":in ") {
            // Ruby quotes the method with `…' before 3.4 and '…' since.
            let method = rest.dropFirst(4)
            guard let closing = method.dropFirst().firstIndex(of: "'") else { return nil }
            rest = method[method.index(after: closing)...]
        }
        guard rest.hasPrefix(": "), let dash = firstRange(of: " - ", in: rest.dropFirst(2)) else { return nil }
        let context = rest.dropFirst(2)[..<dash.lowerBound]
        let description = rest[dash.upperBound...]
        return context.isEmpty || description.isEmpty ? nil : (context, description)
    }

    static func location(inFrame frame: Substring) -> (file: String, line: Int)? {
        var searchStart = frame.startIndex
        while let colon = frame[searchStart...].firstIndex(of: ":") {
            let after = frame.index(after: colon)
            let digits = frame[after...].prefix { $0.isASCII && $0.isNumber }
            let next = digits.endIndex
            if !digits.isEmpty, colon > frame.startIndex, next == frame.endIndex || frame[next] == ":",
                let line = Int(digits)
            {
                return (String(frame[..<colon]), line)
            }
            searchStart = after
        }
        return nil
    }
}
