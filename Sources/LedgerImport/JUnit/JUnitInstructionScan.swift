import Foundation
import LedgerCore

/// Finds a processing instruction without data (`<?name?>`) outside comments and CDATA sections.
///
/// Foundation's `XMLParser` on Linux reads such an instruction's missing data as a C string and
/// crashes the process (found by fuzzing), so a file with one is refused before the parser sees
/// it. JUnit reports have no processing instructions but the XML declaration.
struct JUnitInstructionScan {
    private enum State {
        case text, comment, cdata
    }

    private var state = State.text
    /// Bytes of the previous chunk not yet decided (a construct its end cut short).
    private var carry: [UInt8] = []
    /// Where `carry` starts in the input.
    private var offset = 0

    /// The offset in the input of the first data-less instruction; `nil` when there is none.
    static func firstEmptyInstruction(in input: LineReader.Input) -> Int? {
        var scan = JUnitInstructionScan()
        switch input {
        case .data(let data):
            return scan.feed(data, last: true)
        case .file(let url):
            guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
            defer { try? handle.close() }
            while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                if let found = scan.feed(chunk, last: false) { return found }
            }
            return scan.feed(Data(), last: true)
        }
    }

    /// The 1-based line of `offset` in `input`.
    static func line(of offset: Int, in input: LineReader.Input) -> Int {
        let prefix: Data
        switch input {
        case .data(let data): prefix = data.prefix(offset)
        case .file(let url):
            let handle = try? FileHandle(forReadingFrom: url)
            defer { try? handle?.close() }
            prefix = (try? handle?.read(upToCount: offset)) ?? nil ?? Data()
        }
        return prefix.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    /// Scans the next chunk; returns the offset of a data-less instruction when one is found.
    mutating func feed(_ chunk: Data, last: Bool) -> Int? {
        let bytes = carry + chunk
        var index = 0
        func find(_ pattern: [UInt8], from start: Int) -> Int? {
            var at = start
            while at + pattern.count <= bytes.count {
                if bytes[at] == pattern[0], bytes[at..<at + pattern.count].elementsEqual(pattern) { return at }
                at += 1
            }
            return nil
        }
        scanning: while index < bytes.count {
            switch state {
            case .comment, .cdata:
                let end: [UInt8] = state == .comment ? Array("-->".utf8) : Array("]]>".utf8)
                guard let found = find(end, from: index) else { break scanning }
                index = found + end.count
                state = .text
            case .text:
                guard let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) else {
                    index = bytes.count
                    break scanning
                }
                index = open
                // Up to 9 bytes decide what follows a `<`; the instruction's name and data more.
                guard open + 9 <= bytes.count || last else { break scanning }
                let rest = bytes[open...]
                if rest.starts(with: Array("<!--".utf8)) {
                    state = .comment
                    index = open + 4
                } else if rest.starts(with: Array("<![CDATA[".utf8)) {
                    state = .cdata
                    index = open + 9
                } else if rest.starts(with: Array("<?".utf8)) {
                    guard let close = find(Array("?>".utf8), from: open + 2) else {
                        if last { return nil }
                        break scanning
                    }
                    let inside = bytes[(open + 2)..<close]
                    let name = inside.prefix { !Self.isSpace($0) }
                    if inside.dropFirst(name.count).allSatisfy(Self.isSpace) { return offset + open }
                    index = close + 2
                } else {
                    index = open + 1
                }
            }
        }
        carry = Array(bytes[index...])
        offset += index
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
