import Foundation
import LedgerCore
import LedgerImport
import Testing

/// Input that is not a Swift Testing event stream is refused, naming the line and the problem.
@Suite struct SwiftTestingMalformedInputTests {
    static let good =
        #"{"kind":"event","payload":{"instant":{"absolute":1,"since1970":2},"kind":"runStarted","messages":[]},"version":0}"#

    /// A bad second line and the words its error must contain.
    static let cases: [(String, String)] = [
        ("not json at all", "not valid JSON"),
        (#"{"kind":"event","payload":{"#, "not valid JSON"),
        ("[1, 2]", "not a JSON object"),
        (#"{"payload":{},"version":0}"#, "`kind`"),
        (#"{"kind":"event","version":0}"#, "`payload`"),
        (#"{"kind":"test","payload":{}}"#, "`version`"),
        (#"{"kind":"event","payload":{},"version":"6.3"}"#, "`version`"),
        (#"{"kind":"event","payload":{},"version":true}"#, "`version`"),
        (#"{"kind":"event","payload":{},"version":"6..3.0"}"#, "`version`"),
        (
            #"{"kind":"event","payload":{"instant":{"absolute":1,"since1970":2}},"version":0}"#,
            "`payload.kind`"
        ),
        (
            #"{"kind":"test","payload":{"kind":"function","name":"f()"},"version":0}"#,
            "`payload.id`"
        ),
        (
            #"{"kind":"event","payload":{"kind":"testStarted","instant":{"absolute":1,"since1970":2}},"version":0}"#,
            "`testID`"
        ),
        (
            #"{"kind":"event","payload":{"kind":"testEnded","testID":"M.f()/F.swift:1:1"},"version":0}"#,
            "`instant`"
        ),
        (
            #"{"kind":"event","payload":{"kind":"runStarted","instant":{"absolute":"soon"}},"version":0}"#,
            "`payload.instant.absolute`"
        ),
    ]

    @Test(arguments: cases)
    func malformedLineIsAnErrorNamingItsLine(badLine: (String, String)) throws {
        let input = Data((Self.good + "\n" + badLine.0 + "\n").utf8)
        let error = try #require(throws: LedgerInputError.self) {
            try SwiftTestingImport.events(input)
        }
        #expect(error.source == "events.jsonl")
        #expect(error.line == 2)
        #expect(error.problem.contains(badLine.1), "\(error.problem)")
        #expect(error.fix != nil)
    }

    @Test func lineLongerThanTheLimitIsAnErrorNamingIt() throws {
        let long =
            #"{"kind":"event","payload":{"messages":[{"text":""#
            + String(repeating: "x", count: 5000)
        let input = Data((Self.good + "\n" + long + "\"}]}}\n").utf8)
        let error = try #require(throws: LedgerInputError.self) {
            try SwiftTestingImport.events(
                input, importer: SwiftTestingImporter(maximumLineLength: 1024))
        }
        #expect(error.line == 2)
        #expect(error.problem.contains("longer than 1024 bytes"))
    }

    @Test(arguments: ["", "\n\n  \n"])
    func inputWithoutRecordsIsAnError(text: String) throws {
        let error = try #require(throws: LedgerInputError.self) {
            try SwiftTestingImport.events(Data(text.utf8))
        }
        #expect(error.problem.contains("no Swift Testing record"))
    }

    @Test func missingFileIsAnErrorNamingIt() throws {
        let url = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString)/events.jsonl")
        let error = try #require(throws: LedgerInputError.self) {
            try SwiftTestingImport.events(.file(url))
        }
        #expect(error.problem.contains(url.path))
    }

    @Test func nothingAfterTheBadLineIsEmitted() throws {
        var sink = CollectingSink()
        let input = Data((Self.good + "\nbroken\n" + Self.good + "\n").utf8)
        #expect(throws: LedgerInputError.self) {
            try SwiftTestingImporter().importResults(
                from: .data(input), context: SwiftTestingImport.context(), into: &sink)
        }
        #expect(sink.events.map(\.type) == ["run.start"])
    }
}
