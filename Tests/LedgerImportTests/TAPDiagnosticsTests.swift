import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

@testable import LedgerImport

/// What a failing test point's YAML block or `#` comment lines say becomes its issue, its place
/// and its duration.
struct TAPDiagnosticsTests {
    @Test func nodeTapYAMLGivesTheMessageThePlaceAndTheDuration() throws {
        let run = try TAPSamples.run(
            """
            TAP version 14
            not ok 1 - should be equal
              ---
              duration_ms: 12.5
              found: 1
              wanted: 2
              message: should be equal
              at:
                line: 5
                column: 3
                file: test/basic.js
                function: Test.<anonymous>
              stack: |
                Test.<anonymous> (test/basic.js:5:3)
                Object.<anonymous> (test/basic.js:3:1)
              ...
            1..1
            """)
        let issue = try #require(run.issues("should be equal").first)
        #expect(
            issue
                == LedgerEvent.Issue(
                    at: ImportedRun.start, test: "should be equal", message: "should be equal",
                    file: "test/basic.js",
                    line: 5, kind: .assertion))
        #expect(run.start("should be equal")?.file == "test/basic.js")
        let end = try #require(run.end("should be equal"))
        #expect(end.duration == 0.0125)
        #expect(end.message == "Test.<anonymous> (test/basic.js:5:3)\nObject.<anonymous> (test/basic.js:3:1)")
    }

    @Test func aFlowMapAtAndAQuotedMessageAreRead() throws {
        let run = try TAPSamples.run(
            """
            not ok 1 - a
              ---
              message: "line one\\nline \\"two\\""
              at: { file: 'lib/it''s.js', line: 9, column: 2 }
              ...
            1..1
            """)
        #expect(run.issues.map(\.message) == ["line one\nline \"two\""])
        #expect(run.issues.map(\.file) == ["lib/it's.js"])
        #expect(run.issues.map(\.line) == [9])
    }

    @Test func commentsAfterANotOkBecomeItsIssue() throws {
        let run = try TAPSamples.run(
            """
            1..3
            not ok 1 - second fails

            #   Failed test 'second fails'
            #   at t/more.t line 4.
            #          got: '1'
            #     expected: '2'
            not ok 2 - should be empty: FAILED
            # Bacon::Error: [1].empty?() failed
            # \t./spec/array_spec.rb:12: An array - should be empty
            # \t./spec/array_spec.rb:3
            ok 3 - passes
            # this comment belongs to no failure
            """)
        let perl = try #require(run.issues("second fails").first)
        #expect(perl.message == "Failed test 'second fails'\nat t/more.t line 4.\ngot: '1'\nexpected: '2'")
        #expect(perl.file == "t/more.t")
        #expect(perl.line == 4)
        let bacon = try #require(run.issues("should be empty").first, "Bacon's verdict suffix is not part of the name")
        #expect(bacon.message.hasPrefix("Bacon::Error: [1].empty?() failed\n"))
        #expect(bacon.file == "./spec/array_spec.rb")
        #expect(bacon.line == 12)
        #expect(run.end("passes")?.message == nil)
        #expect(run.issues.count == 2)
    }

    @Test func aYAMLBlockAfterAPassingTestGivesItsDuration() throws {
        let run = try TAPSamples.run("ok 1 - a\n  ---\n  duration_ms: 250\n  ...\nok 2 - b\n1..2\n")
        #expect(run.ends.map(\.duration) == [0.25, 0])
        #expect(run.start("b")?.at == ImportedRun.start + 0.25)
    }

    @Test func blockScalarsQuotedScalarsListsAndNestedMapsAreReadShallowly() {
        let yaml = TAPYAML.parse(
            [
                "plain: some text # a comment",
                "single: 'it''s'",
                "folded: >",
                "  one",
                "  two",
                "",
                "  three",
                "literal: |-",
                "  a",
                "    b",
                "",
                "list:",
                "  - first",
                "  - 'second'",
                "nested:",
                "  key: value",
                "  deeper:",
                "    x: 1",
                "flow: [a, 'b, c', d]",
                "continued: first",
                "  second",
                "not a key",
            ].map { Substring($0) })
        #expect(yaml["plain"] == .text("some text"))
        #expect(yaml["single"] == .text("it's"))
        #expect(yaml["folded"] == .text("one two\nthree"))
        #expect(yaml["literal"] == .text("a\n  b"))
        #expect(yaml["list"] == .list(["first", "second"]))
        #expect(yaml["nested"] == .map(["key": "value", "deeper": "x: 1"]))
        #expect(yaml["flow"] == .list(["a", "b, c", "d"]))
        #expect(yaml["continued"] == .text("first second"))
        #expect(yaml.count == 8)
    }

    @Test(arguments: [
        ("file:///app/test/a.test.js:35:1", "/app/test/a.test.js", 35),
        ("test/a.js:7", "test/a.js", 7),
        ("C:\\work\\a.js:3:4", "C:\\work\\a.js", 3),
    ])
    func locationsReadWithOrWithoutSchemeAndColumn(text: String, file: String, line: Int) {
        #expect(TAPLocation(Substring(text)) == TAPLocation(file: file, line: line))
    }

    @Test func stackFramesSkipNodesOwnModulesAndAnonymousOnes() {
        let frames = TAPLocation.frames(
            in: """
                Date.toISOString (<anonymous>)
                Test.run (node:internal/test_runner/test:631:25)
                thrower (file:///app/lib/index.mjs:11:43)
                    at Object.<anonymous> (/app/test/a.test.js:5:9)
                """)
        #expect(
            frames == [
                TAPLocation(file: "/app/lib/index.mjs", line: 11), TAPLocation(file: "/app/test/a.test.js", line: 5),
            ])
    }
}
