import Foundation
import Testing

@testable import LedgerCore

/// What reading one line gives.
enum LineOutcome: Equatable, Sendable {
    case record(LedgerRecord)
    case blank
    case skipped(warning: String)
    case problem(String)

    /// The problem's words, if the line was refused.
    var message: String? {
        if case .problem(let message) = self { message } else { nil }
    }
}

/// The stream's reader before the byte-level scanner: Foundation's `JSONDecoder` through
/// `LedgerRecord`'s Codable conformance, with its wording of problems. The reference the fast
/// reader must match.
enum FoundationReader {
    static func read(_ line: Data, number: Int = 1) -> LineOutcome {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return .blank }
        do {
            let record = try JSONDecoder().decode(LedgerRecord.self, from: line)
            guard UUID(uuidString: record.run) != nil else {
                return .problem("`run` is \"\(record.run)\", not a UUID string")
            }
            return .record(record)
        } catch let unknown as UnknownEventType {
            return .skipped(warning: "s:\(number): skipped unknown event type \"\(unknown.type)\"")
        } catch let error as DecodingError {
            return .problem(explain(error))
        } catch {
            return .problem("\(error)")
        }
    }

    private static func explain(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            let path = (context.codingPath + [key]).map(\.stringValue).joined(separator: ".")
            return "required field `\(path)` is missing"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "field `\(path)` is not a valid \(describe(type))"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "not valid JSON" }
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "field `\(path)`: \(context.debugDescription)"
        @unknown default:
            return "not a valid event"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "string"
        case is Int.Type: "integer"
        case is Double.Type: "number"
        case is Bool.Type: "boolean"
        default: "value"
        }
    }
}

/// Reads lines with the fast reader, keeping its state from line to line as an import does.
struct FastReader {
    var decoder = EventStreamDecoder(source: "s")

    mutating func read(_ line: Data, number: Int = 1) -> LineOutcome {
        do {
            guard let record = try decoder.decode(line: line, number: number) else {
                defer { decoder.clearWarnings() }
                return decoder.warnings.last.map { .skipped(warning: $0) } ?? .blank
            }
            return .record(record)
        } catch let error as LedgerInputError {
            return .problem(error.problem)
        } catch {
            return .problem("unexpected \(error)")
        }
    }

    mutating func read(_ line: String, number: Int = 1) -> LineOutcome { read(Data(line.utf8), number: number) }
}

let runID = "6f1c1f3e-6a3b-4c89-9a47-2f3f5f5e8a10"

/// One of each event, with every field set and with only the required ones.
let sampleEvents: [LedgerEvent] = [
    .runStart(
        .init(
            at: 1_700_000_000.25, project: "Pröject \"P\"", source: "xctest", revision: "abc", branch: "main/x",
            ci: .init(provider: "github-actions", build: "9", job: "test", url: "https://ci/9?a=1&b=2"),
            host: "mac", attempt: 2, labels: ["lane": "ci", "é": "\n"], configuration: "iPhone 15 / iOS 18",
            kind: .verification)),
    .runStart(.init(at: 0, project: "", source: "junit")),
    .runStart(.init(at: 1, project: "P", source: "tap", ci: .init(), labels: [:])),
    .testStart(
        .init(
            at: 2, test: "M.S/t()", attempt: 1, suite: "M.S", name: "t()", file: "S.swift", line: 3, layer: .ui,
            tags: ["slow", "ünïcode", ""], process: 48_213, load: 6.25)),
    .testStart(.init(at: -2.5e-7, test: "Ünïcødé \"quoted\" \\ back/slash\n\t\u{0}😀", attempt: 7, tags: [])),
    .activityStart(.init(at: 2.1, test: "M.S/t", activity: "a1", parent: "a0", name: "Log in")),
    .activityStart(.init(at: 2.1, test: "M.S/t", attempt: 2, activity: "a1")),
    .activityEnd(.init(at: 2.2, activity: "a1", outcome: .passed)),
    .activityEnd(.init(at: 2.2, activity: "a1")),
    .capture(
        .init(
            at: 2.3, test: "M.S/t", verifier: "AlertVerifier", activity: "a1",
            fields: [
                "title": "Delete?", "actions": [["title": "OK", "style": "default"], nil], "animated": true,
                "count": 3, "ratio": -0.125, "big": 1e300, "nested": [[[["deep": []]]]], "empty": [:],
            ])),
    .capture(.init(at: 2.3, test: "M.S/t", verifier: "V", fields: "just a string")),
    .capture(.init(at: 2.3, test: "M.S/t", verifier: "V")),
    .predicate(
        .init(
            at: 2.4, test: "M.S/t", name: "spinner hidden", expect: .doesntHold, held: true, attempts: 3,
            waited: 0.02, timeout: 1, interval: 0.01, activity: "a1", file: "S.swift", line: 9)),
    .predicate(
        .init(at: 2.4, test: "M.S/t", name: "n", expect: .holds, held: false, attempts: 1, waited: 0, timeout: 0)),
    .attachment(
        .init(
            at: 2.45, test: "M.S/t", attempt: 2, name: "Launch Screen", mediaType: "image/png", size: 48_213,
            activity: "a1", path: "/tmp/attachments/B7DFB9D4.png")),
    .attachment(.init(at: 2.45, test: "M.S/t", name: "notes \"1\".txt")),
    .issue(
        .init(at: 2.5, test: "M.S/t", message: "XCTAssertEqual failed", file: "S.swift", line: 12, kind: .assertion)),
    .issue(.init(at: 2.5, test: "M.S/t", message: "")),
    .issue(.init(at: 2.5, test: "M.S/t", message: "m", kind: .missing)),
    .testEnd(.init(at: 3, test: "M.S/t", outcome: .failed, duration: 1, message: "boom")),
    .testEnd(.init(at: 3, test: "M.S/t", outcome: .expectedFailure, duration: 0.002)),
    .testEnd(.init(at: 4, test: "M.S/t", outcome: .passed, duration: 1.5, load: 0.5, cpu: 0.125)),
    .targetRun(
        .init(
            at: 3.5, target: "CartTests", hash: "9f86d081884c7d659a2feaa0c55ad015", tests: 12, passed: 0,
            vouchedBy: "8f3c2a10-6a3b-4c89-9a47-2f3f5f5e8a10", skipped: true)),
    .targetRun(.init(at: 3.5, target: "UI Tests \"é\"", hash: "", tests: 0, passed: 0)),
    .runEnd(.init(at: 4, outcome: .failed, counts: .init(tests: 16, failures: 1, errors: 2))),
    .runEnd(.init(at: 1.7976931348623157e308)),
]

@Suite struct FastDecodingTests {
    /// Both readers on one line: the outcome, which must be the same.
    func bothRead(_ line: Data) -> (fast: LineOutcome, foundation: LineOutcome) {
        var fast = FastReader()
        return (fast.read(line), FoundationReader.read(line))
    }

    /// The samples set every field of the schema at least once, so that the checks below see each.
    @Test func theSamplesCoverEveryFieldOfTheSchema() throws {
        for (type, required, optional) in LedgerEvent.schema {
            let lines = try sampleEvents.filter { $0.type == type }.map { event in
                try JSONDecoder().decode(
                    JSONValue.self, from: JSONEncoder().encode(LedgerRecord(run: runID, event: event)))
            }
            let present = Set(
                lines.flatMap { line -> [String] in
                    guard case .object(let members) = line else { return [] }
                    return Array(members.keys)
                })
            #expect(
                Set(required + optional).isSubset(of: present),
                "\(type): \(Set(required + optional).subtracting(present))")
        }
    }

    @Test(arguments: [
        JSONEncoder.OutputFormatting(), .sortedKeys, .prettyPrinted, .withoutEscapingSlashes,
        [.sortedKeys, .prettyPrinted],
    ])
    func everyEventReadsAsFoundationReadsIt(_ formatting: JSONEncoder.OutputFormatting) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting
        for event in sampleEvents {
            let record = LedgerRecord(run: runID, event: event)
            let line = try encoder.encode(record)
            let (fast, foundation) = bothRead(line)
            #expect(fast == .record(record))
            #expect(fast == foundation)
        }
    }

    /// Every member of every sample line, removed or replaced by a value of each JSON type: the
    /// fast reader accepts and refuses as Foundation does, with the same words. The one
    /// difference: a number no `Int` holds is named by its field rather than "not valid JSON".
    @Test func everyFieldMissingOrOfAnyTypeIsJudgedAsFoundationJudgesIt() throws {
        let replacements: [JSONValue?] = [
            nil, .null, "x", "", "passed", 1, 0, -1, 1.5, true, false, [], [:], ["x"], ["k": "v"], ["k": 1],
            .string(runID),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var compared = 0
        for event in sampleEvents {
            let line = try encoder.encode(LedgerRecord(run: runID, event: event))
            guard case .object(let members) = try JSONDecoder().decode(JSONValue.self, from: line) else {
                Issue.record("not an object")
                continue
            }
            for key in members.keys.sorted() {
                for replacement in replacements {
                    var changed = members
                    changed[key] = replacement
                    let variant = try encoder.encode(JSONValue.object(changed))
                    let (fast, foundation) = bothRead(variant)
                    compared += 1
                    if foundation == .problem("not valid JSON") {
                        #expect(fast.message?.contains("`\(key)` is not a valid integer") == true, "\(key)")
                    } else {
                        #expect(fast == foundation, "\(String(decoding: variant, as: UTF8.self))")
                    }
                }
            }
        }
        #expect(compared > 2_000)
    }

    @Test(arguments: sameAsFoundation)
    func linesAreJudgedAsFoundationJudgesThem(_ line: String) {
        let (fast, foundation) = bothRead(Data(line.utf8))
        #expect(fast == foundation)
    }

    @Test(arguments: invalidForBoth)
    func invalidJSONIsRefusedByBoth(_ line: String) throws {
        let (fast, foundation) = bothRead(Data(line.utf8))
        #expect(foundation == .problem("not valid JSON"))
        let problem = try #require(fast.message)
        #expect(problem.hasPrefix("not valid JSON: "))
        #expect(problem.contains(" at byte "))
    }

    @Test(arguments: invalidBytesForBoth)
    func invalidBytesAreRefusedByBoth(_ bytes: [UInt8]) throws {
        let (fast, foundation) = bothRead(Data(bytes))
        #expect(foundation == .problem("not valid JSON"))
        #expect(fast.message?.hasPrefix("not valid JSON: ") == true)
    }

    /// Where the fast reader is deliberately stricter than Foundation (RFC 8259 throughout the
    /// line, not only in the fields it reads) or names a field Foundation left unnamed.
    @Test(arguments: deliberateDifferences)
    func deliberateDifferencesFromFoundation(_ difference: Difference) throws {
        let (fast, foundation) = bothRead(Data(difference.line.utf8))
        #expect(foundation == difference.foundation)
        let problem = try #require(fast.message)
        #expect(problem.hasPrefix(difference.fast), "\(problem)")
    }

    @Test func invalidBytesInIgnoredFieldsAreRefusedThoughFoundationLetThemPass() {
        for bytes: [UInt8] in [[0xFF], [0x00], [0xC0, 0xAF], [0xED, 0xA0, 0x80]] {
            let line = Data(#"{"v":1,"type":"run.end","run":"\#(runID)","at":1,"x":""#.utf8 + bytes + #""}"#.utf8)
            let (fast, foundation) = bothRead(line)
            #expect(foundation == .record(LedgerRecord(run: runID, event: .runEnd(.init(at: 1)))))
            #expect(fast.message?.hasPrefix("not valid JSON: ") == true)
        }
    }
}

extension FastDecodingTests {
    @Test func problemsNameTheSourceAndTheLine() {
        let lines = [
            #"{"v":1,"type":"run.end""#, "\u{FF}\u{FE}garbage", #"{"v":1,"type":"test.end","run":"\#(runID)","at":1}"#,
            #"{"v":1,"type":"run.end","run":"nope","at":1}"#, "[1]",
            #"{"v":1,"type":"run.end","run":"\#(runID)","at":1e999}"#,
        ]
        for line in lines {
            #expect {
                var decoder = EventStreamDecoder(source: "events.ndjson")
                return try decoder.decode(line: Data(line.utf8), number: 4_242)
            } throws: { error in
                let error = error as? LedgerInputError
                return error?.source == "events.ndjson" && error?.line == 4_242 && error?.fix != nil
                    && error?.description.hasPrefix("events.ndjson:4242: ") == true
            }
        }
    }

    @Test func aTenMegabyteMessageReads() throws {
        let message = String(repeating: "fail \"quoted\" é€😀 \\ / ", count: 400_000)
        let record = LedgerRecord(
            run: runID, event: .testEnd(.init(at: 3, test: "A/b", outcome: .failed, duration: 1, message: message)))
        let line = try JSONEncoder().encode(record)
        #expect(line.count > 10_000_000)
        let (fast, foundation) = bothRead(line)
        #expect(fast == .record(record))
        #expect(fast == foundation)
    }

    @Test func deepNestingIsRefusedWithoutExhaustingTheStack() throws {
        let depth = 100_000
        let line =
            #"{"v":1,"type":"capture","run":"\#(runID)","at":1,"test":"t","attempt":1,"verifier":"V","fields":"#
            + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        let (fast, foundation) = bothRead(Data(line.utf8))
        #expect(foundation == .problem("not valid JSON"))
        #expect(fast.message?.hasPrefix("not valid JSON: arrays or objects nested deeper than 512 levels") == true)
    }

    @Test func nestingUpToTheLimitReadsAsFoundationReadsIt() {
        func line(arrays: Int) -> Data {
            Data(
                (#"{"v":1,"type":"capture","run":"\#(runID)","at":1,"test":"t","attempt":1,"verifier":"V","fields":"#
                    + String(repeating: "[", count: arrays) + String(repeating: "]", count: arrays) + "}").utf8)
        }
        // The line's object is the first level.
        let deepest = bothRead(line(arrays: JSONScanner.maximumDepth - 1))
        #expect(deepest.fast.message == nil)
        #expect(deepest.fast == deepest.foundation)
        let tooDeep = bothRead(line(arrays: JSONScanner.maximumDepth))
        #expect(tooDeep.foundation == .problem("not valid JSON"))
        #expect(tooDeep.fast.message?.hasPrefix("not valid JSON: arrays or objects nested deeper") == true)
    }

    /// Run and test ids are reused from line to line; a changed one must never read as the old.
    @Test func idsRepeatedFromLineToLineStayRight() throws {
        let otherRun = "00000000-0000-4000-8000-000000000001"
        let ended = #","outcome":"passed","duration":1}"#
        let lines = [
            #"{"v":1,"type":"test.start","run":"\#(runID)","at":1,"test":"A/a","attempt":1}"#,
            #"{"v":1,"type":"test.end","run":"\#(runID)","at":1,"test":"A/a","attempt":1"# + ended,
            #"{"v":1,"type":"test.start","run":"\#(runID)","at":1,"test":"A/b","attempt":1}"#,
            #"{"v":1,"type":"test.end","run":"\#(runID)","at":1,"test":"A\/b","attempt":1"# + ended,
            #"{"v":1,"type":"test.start","run":"\#(otherRun)","at":1,"test":"A/bb","attempt":1}"#,
            #"{"v":1,"type":"test.start","run":"\#(otherRun)","at":1,"test":"A/b","attempt":1}"#,
            #"{"v":1,"type":"test.start","run":"\#(otherRun.dropLast())x","at":1,"test":"A/b","attempt":1}"#,
            #"{"v":1,"type":"test.start","run":"\#(otherRun)","at":1,"test":"A/b","attempt":1}"#,
            #"{"v":1,"type":"issue","run":"\#(otherRun.uppercased())","at":1,"test":"","attempt":1,"message":"m"}"#,
            #"{"v":1,"type":"test.end","run":"\#(otherRun)x","at":1,"test":"","attempt":1"# + ended,
            #"{"v":1,"type":"test.end","run":"\#(otherRun)","at":1,"test":"\u0041/b","attempt":1"# + ended,
        ]
        var fast = FastReader()
        for (index, line) in lines.enumerated() {
            #expect(
                fast.read(line, number: index + 1) == FoundationReader.read(Data(line.utf8), number: index + 1),
                "\(line)")
        }
    }

    @Test func unknownTypesWarnWithTheLineNumber() {
        var fast = FastReader()
        let line = #"{"v":1,"type":"screenshot","run":"not checked","extra":[1,{"a":null}]}"#
        #expect(fast.read(line, number: 12) == .skipped(warning: #"s:12: skipped unknown event type "screenshot""#))
        #expect(fast.read(line, number: 12) == FoundationReader.read(Data(line.utf8), number: 12))
    }

    /// Capture fields of random shape read as Foundation reads them.
    @Test func randomCaptureFieldsReadAsFoundationReadsThem() throws {
        var random = SplitMix64(state: 99)
        let encoder = JSONEncoder()
        for _ in 0..<500 {
            let fields = randomValue(depth: 0, using: &random)
            let record = LedgerRecord(
                run: runID, event: .capture(.init(at: 1, test: "t", verifier: "V", fields: fields)))
            let (fast, foundation) = bothRead(try encoder.encode(record))
            #expect(fast == foundation)
            if case .null = fields {
                #expect(
                    fast == .record(LedgerRecord(run: runID, event: .capture(.init(at: 1, test: "t", verifier: "V")))))
            } else {
                #expect(fast == .record(record))
            }
        }
    }

    /// Randomly damaged lines: whatever the fast reader accepts or skips, Foundation accepts or
    /// skips alike.
    @Test func damagedLinesAreNeverReadDifferentlyFromFoundation() throws {
        var random = SplitMix64(state: 2_024)
        let encoder = JSONEncoder()
        let lines = try sampleEvents.map { try Array(encoder.encode(LedgerRecord(run: runID, event: $0))) }
        let alphabet = Array(#"{}[],:"\ -+.eE0123456789tfnulrsvx"#.utf8) + [0x00, 0x09, 0x80, 0xFF]
        var accepted = 0
        for _ in 0..<5_000 {
            var bytes = lines[Int.random(in: 0..<lines.count, using: &random)]
            let index = Int.random(in: 0..<bytes.count, using: &random)
            let byte = alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
            switch Int.random(in: 0..<4, using: &random) {
            case 0: bytes[index] = byte
            case 1: bytes.insert(byte, at: index)
            case 2: bytes.remove(at: index)
            default: bytes = Array(bytes[..<index])
            }
            let (fast, foundation) = bothRead(Data(bytes))
            if fast.message == nil {
                accepted += 1
                #expect(fast == foundation, "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
        #expect(accepted > 500)
    }

    private func randomValue(depth: Int, using random: inout SplitMix64) -> JSONValue {
        let keys = ["a", "title", "ü", "\"q\"", "back\\slash", "", "tab\t", "😀", "ctl\u{1}"]
        switch Int.random(in: 0..<(depth > 3 ? 4 : 6), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2:
            let value = Double(bitPattern: random.next())
            return .number(value.isFinite ? value : Double(Int.random(in: -1_000...1_000, using: &random)))
        case 3: return .string(keys[Int.random(in: 0..<keys.count, using: &random)] + "\n/\u{7F}€")
        case 4:
            return .array(
                (0..<Int.random(in: 0...4, using: &random)).map { _ in randomValue(depth: depth + 1, using: &random) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                members[keys[Int.random(in: 0..<keys.count, using: &random)]] = randomValue(
                    depth: depth + 1, using: &random)
            }
            return .object(members)
        }
    }
}

/// A line both readers must judge alike, with the same words.
let sameAsFoundation: [String] = {
    let start = #"{"v":1,"type":"test.start","run":"\#(runID)","at":1,"test":"t","#
    let end = #"{"v":1,"type":"run.end","run":"\#(runID)","#
    let capture = #"{"v":1,"type":"capture","run":"\#(runID)","at":1,"test":"t","attempt":1,"verifier":"V","fields":"#
    let runStart = #"{"v":1,"type":"run.start","run":"\#(runID)","at":1,"project":"p","source":"s","#
    let predicate =
        #"{"v":1,"type":"predicate","run":"\#(runID)","at":1,"test":"t","attempt":1,"name":"n","expect":"holds","#
    let testEnd = #"{"v":1,"type":"test.end","run":"\#(runID)","at":1,"test":"A/b","attempt":1,"duration":0.1"#
    let attempts = [
        "1.0", "1e2", "1.5e1", "1E+0", "10e-1", "-0", "-0.0", "9223372036854775807", "-9223372036854775808",
        "1.00000000000000000001", "0.99999999999999999999", #""1""#, "null", "true", "[]", "{}",
        #"1,"attempt":2"#, #""x","attempt":2"#, #"2,"attempt":"x""#,
    ]
    let times = [
        "-0", #""1""#, "null", "5e-324", "4.9e-324", "1e-310", "1.7976931348623158e308", "0e-400", "0.0e999",
        "12345678901234567890123456789", "0.1000000000000000055511151231257827021181583404541015625", "1.5e+3",
        "1E-3", "123456789012345678901234567890e-330",
    ]
    let captured = [
        #""x""#, "null", "1", "true", "[]", "{}", #"{"a":null,"b":1,"c":1.5,"d":true,"e":[1,"x",{"k":[]}]}"#,
        #"{"a":1,"a":2}"#, #"{"a":1,"a":1e999}"#, #"{"a":12345678901234567890123}"#, #"{"a":-0}"#, #"{"a":1e308}"#,
        #"{"f":1e400}"#, #"{"d":[{"x":[1e400]}]}"#, "[1e400]", #"{"a":{"b":{"c":1e400}}}"#, "1e400", "-1e-400",
        #"{"a":[{"b":[1,{"c":-1e999}]}]}"#, #"{"\u00e9\ud83d\ude00":"\u0000"}"#,
    ]
    return attempts.map { start + #""attempt":\#($0)}"# }
        + [#""bogus""#, "3", "null", #""UI""#, #""ui""#].map { start + #""attempt":1,"layer":\#($0)}"# }
        + [#"["a",1]"#, #""a""#, "[null]", "[]", #"["a","b"]"#, "null", "{}"].map {
            start + #""attempt":1,"tags":\#($0)}"#
        }
        + [#""1""#, "null", "1e2", "-7"].map { start + #""attempt":1,"line":\#($0)}"# }
        + times.map { end + #""at":\#($0)}"# }
        + captured.map { capture + $0 + "}" }
        + [
            #""ci":{"provider":1}"#, #""ci":"x""#, #""ci":{"zz":1}"#, #""ci":null"#, #""ci":{"url":null,"job":"j"}"#,
            #""ci":{"build":"1","build":2}"#, #""labels":{"a":1}"#, #""labels":{"a":null}"#, #""labels":[]"#,
            #""labels":{"a":"1","a":"2"}"#, #""labels":{"a":"1","a":2}"#, #""labels":{}"#, #""attempt":"1""#,
            #""attempt":2"#, #""configuration":5"#, #""revision":null,"branch":"b""#,
        ].map { runStart + $0 + "}" }
        + [
            #""held":1,"attempts":1,"waited":0,"timeout":1"#, #""held":true,"attempts":0,"waited":0,"timeout":1"#,
            #""held":true,"attempts":1,"waited":0"#, #""held":null,"attempts":1,"waited":0,"timeout":1"#,
            #""held":false,"attempts":1,"waited":"0","timeout":1"#,
        ].map { predicate + $0 + "}" }
        + ["", #","outcome":"Passed""#, #","outcome":null"#, #","outcome":"crashed""#, #","outcome":5"#].map {
            testEnd + $0 + "}"
        }
        + [
            #"{"v":1,"type":"run.end","run":"\#(runID)","at":1}"#,
            #"  {"v":1,"type":"run.end","run":"\#(runID)","at":1}  "#,
            "\t" + #"{"v":1,"type":"run.end","run":"\#(runID)","at":1}"# + "\r",
            "\u{FEFF}" + #"{"v":1,"type":"run.end","run":"\#(runID)","at":1}"#,
            #"{"v":1.0,"type":"run.end","run":"\#(runID)","at":1}"#,
            #"{"v":"1","type":"run.end","run":"\#(runID)","at":1}"#,
            #"{"v":2,"type":"run.end","run":"\#(runID)","at":1}"#,
            #"{"v":0,"type":"screenshot","run":"\#(runID)","at":1}"#,
            #"{"v":null,"type":"run.end","run":"\#(runID)","at":1}"#,
            #"{"type":"run.end","run":"\#(runID)","at":1}"#,
            #"{"v":1,"run":"\#(runID)","at":1}"#,
            #"{"v":1,"type":"run.end","at":1}"#,
            #"{"v":1,"type":5,"run":"\#(runID)","at":1}"#,
            #"{"v":1,"type":"zzz","run":"nope"}"#,
            #"{"v":1,"type":"zzz","run":5}"#,
            #"{"v":1,"type":"run.end","run":"nope"}"#,
            #"{"v":1,"type":"run.end","run":"nope","at":1}"#,
            #"{"v":1,"type":"run.end","run":"\#(runID.uppercased())","at":1}"#,
            #"{"v":1,"type":"run.end","run":"{\#(runID)}","at":1}"#,
            #"{"v":1,"type":"run.end","run":"\#(runID.replacingOccurrences(of: "-", with: ""))","at":1}"#,
            #"{"v":1,"type":"run.end","run":"\#(runID) ","at":1}"#,
            #"{"v":1,"type":"run.end","run":"","at":1}"#,
            #"{"v":1,"type":"run.end","run":"'; DROP TABLE run; --","at":1}"#,
            #"{"v":1,"type":"run.end","run":"\#(runID)","at":1,"outcome":"\ud83d\ude00 \u00e9\/\b\f\n\r\t\"\\"}"#,
            #"{"v":1,"type":"run.end","run":"\#(runID)","at":1,"outcome":"\u0000"}"#,
            #"{"v":1,"type":"run.end","run":"\#(runID)","at":1,"outcome":"\#u{7F}"}"#,
            #"{"v":1,"type":"run.end","run":"\#(runID)","at":1,"outcome":"a","outcome":"b"}"#,
            #"{"v":1,"type":"run.end","run":"\#(runID)","at":1,"extra":{"x":[1,{"y":null}]},"more":[]}"#,
            #"{"v":1,"type":"r\u0075n.end","run":"\#(runID)","at":1}"#,
            #"{"v":1,"\u0074ype":"run.end","run":"\#(runID)","at":1}"#,
            #"{"v":1,"type":"issue","run":"\#(runID)","at":1,"test":"t","attempt":1,"message":"m","kind":"bogus"}"#,
            #"{"v":1,"type":"issue","run":"\#(runID)","at":1,"test":"t","attempt":1,"message":"m","kind":"crash"}"#,
            #"{"v":1,"type":"activity.end","run":"\#(runID)","at":1,"activity":"a","outcome":"nope"}"#,
            #"{"v":1,"type":"activity.start","run":"\#(runID)","at":1,"test":"t","attempt":1}"#,
            #"{"v":1,"type":"run.end","run":"\#(runID)","at":1,"outcome":5}"#,
            "", "   ", "\t\r", " \t \r ",
        ]
}()

/// Lines that are not JSON for either reader.
let invalidForBoth: [String] = {
    let end = #"{"v":1,"type":"run.end","run":"\#(runID)","at":1"#
    return [
        #"{"v":1,"type":"run.end""#, "{", "}", "x", "\n", "\u{FEFF}",
        #"{"v":1,"type":"run.end","run":"\#(runID)","at":1} x"#,
        end + "}}", end + ",,}", end + "}\u{0B}", end + "}\u{0}", end + " \"x\":1}",
    ]
        + ["01", "1.", ".5", "+1", "-", "NaN", "tru", "True"].map {
            #"{"v":1,"type":"run.end","run":"\#(runID)","at":\#($0)}"#
        }
        + [#""\ud800""#, #""\udc00""#, #""\x""#, #""\u12G4""#, "\"a\tb\"", #""a"#, "'a'"].map {
            end + #","outcome":\#($0)}"#
        }
}()

/// Bytes that are not UTF-8 where either reader reads a string.
let invalidBytesForBoth: [[UInt8]] = [
    [0x00], [0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80],
]
.map { Array(#"{"v":1,"type":"run.end","run":"\#(runID)","at":1,"outcome":""#.utf8) + $0 + Array(#""}"#.utf8) }

struct Difference: Sendable, CustomTestStringConvertible {
    var line: String
    /// How Foundation's reader judged the line.
    var foundation: LineOutcome
    /// How the fast reader's problem starts.
    var fast: String

    var testDescription: String { line }
}

let deliberateDifferences: [Difference] = {
    let end = #"{"v":1,"type":"run.end","run":"\#(runID)","at":1"#
    let ended = LineOutcome.record(LedgerRecord(run: runID, event: .runEnd(.init(at: 1))))
    let start = #"{"v":1,"type":"test.start","run":"\#(runID)","at":1,"test":"t","attempt":"#
    let capture = #"{"v":1,"type":"capture","run":"\#(runID)","at":1,"test":"t","attempt":1,"verifier":"V","fields":"#
    let notJSON = LineOutcome.problem("not valid JSON")
    return [
        Difference(line: end + ",}", foundation: ended, fast: "not valid JSON: a comma before a closing bracket"),
        Difference(line: end + #","x":[1,]}"#, foundation: ended, fast: "not valid JSON: a comma before"),
        Difference(line: end + #","x":{"a":1,}}"#, foundation: ended, fast: "not valid JSON: a comma before"),
        Difference(line: end + #","x":-}"#, foundation: ended, fast: "not valid JSON: a malformed number"),
        Difference(line: end + #","x":1e}"#, foundation: ended, fast: "not valid JSON: a malformed number"),
        Difference(line: end + #","x":-01}"#, foundation: ended, fast: "not valid JSON: a number with a leading zero"),
        Difference(line: end + #","x":"\ud800"}"#, foundation: ended, fast: "not valid JSON: an unpaired UTF-16"),
        Difference(line: end + #","x":"\x"}"#, foundation: ended, fast: "not valid JSON: an invalid escape"),
        Difference(line: end + ",\"x\":\"a\tb\"}", foundation: ended, fast: "not valid JSON: an unescaped control"),
        Difference(line: start + "1.5}", foundation: notJSON, fast: "field `attempt` is not a valid integer"),
        Difference(line: start + "1e30}", foundation: notJSON, fast: "field `attempt` is not a valid integer"),
        Difference(
            line: start + "9223372036854775808}", foundation: notJSON, fast: "field `attempt` is not a valid integer"),
        Difference(
            line: start + "-9223372036854775809}", foundation: notJSON, fast: "field `attempt` is not a valid integer"),
        Difference(line: start + "1,\"line\":0.5}", foundation: notJSON, fast: "field `line` is not a valid integer"),
        Difference(
            line: #"{"v":1.5,"type":"run.end","run":"\#(runID)","at":1}"#, foundation: notJSON,
            fast: "field `v` is not a valid integer"),
        Difference(
            line: #"{"v":1,"type":"run.end","run":"\#(runID)","at":1e400}"#, foundation: notJSON,
            fast: "field `at` is not a valid number"),
        Difference(
            line: #"{"v":1,"type":"run.end","run":"\#(runID)","at":-1e400}"#, foundation: notJSON,
            fast: "field `at` is not a valid number"),
        Difference(
            line: #"{"v":1,"type":"run.end","run":"\#(runID)","at":1e-400}"#, foundation: notJSON,
            fast: "field `at` is not a valid number"),
        Difference(
            line: #"{"v":1,"type":"run.end","run":"\#(runID)","at":2e-324}"#, foundation: notJSON,
            fast: "field `at` is not a valid number"),
        Difference(line: "[1]", foundation: .problem("field `` is not a valid value"), fast: "not a JSON object"),
        Difference(line: "1", foundation: .problem("field `` is not a valid value"), fast: "not a JSON object"),
        Difference(line: "null", foundation: .problem("field `` is not a valid value"), fast: "not a JSON object"),
        Difference(line: #""text""#, foundation: .problem("field `` is not a valid value"), fast: "not a JSON object"),
        Difference(
            line: capture + "{\"a\":\"\t\"}}", foundation: .problem("field `fields.a` is not a valid value"),
            fast: "not valid JSON: an unescaped control character"),
    ]
}()
