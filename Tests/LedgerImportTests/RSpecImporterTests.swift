import Foundation
import LedgerCore
import LedgerImport
import LedgerTestSupport
import Testing

/// Written RSpec JSON reports for each mapping rule, and malformed ones.
struct RSpecImporterTests {
    static func run(_ json: String, metadata: RunMetadata = RunMetadata(project: "Demo")) throws -> ImportedRun {
        try ImportedRun.importing(Data(json.utf8), with: RSpecImporter(), metadata: metadata)
    }

    static func example(
        _ description: String, full: String, status: String = "passed", file: String = "./spec/a_spec.rb",
        extra: String = ""
    ) -> String {
        """
        {"id":"\(file)[1:1]","description":"\(description)","full_description":"\(full)","status":"\(status)",\
        "file_path":"\(file)","line_number":4,"run_time":0.5,"pending_message":null\(extra)}
        """
    }

    static func report(_ examples: [String], summary: String = #"{"duration":2.0}"#) -> String {
        #"{"version":"3.13.0","examples":["# + examples.joined(separator: ",") + #"],"summary":"# + summary + "}"
    }

    @Test func theTestIDIsTheSpecFileTheGroupPathAndTheDescription() throws {
        let run = try Self.run(
            Self.report([
                Self.example("adds", full: "Calculator #add adds"),
                Self.example("nested", full: "Outer inner deeper nested", file: "spec/b_spec.rb"),
            ]))
        #expect(run.testIDs == ["spec/a_spec.rb:Calculator #add/adds", "spec/b_spec.rb:Outer inner deeper/nested"])
        #expect(run.starts.map(\.suite) == ["Calculator #add", "Outer inner deeper"])
        #expect(run.starts.map(\.file) == ["spec/a_spec.rb", "spec/b_spec.rb"])
        #expect(run.runEnd == LedgerEvent.RunEnd(at: ImportedRun.start + 2, outcome: .passed))
    }

    @Test func aPendingExampleIsSkippedWithItsPendingMessage() throws {
        let pending = Self.example("later", full: "A later", status: "pending").replacingOccurrences(
            of: "\"pending_message\":null", with: "\"pending_message\":\"No reason given\"")
        let run = try Self.run(Self.report([pending]))
        #expect(run.outcomes("spec/a_spec.rb:A/later") == [.skipped])
        #expect(run.end("spec/a_spec.rb:A/later")?.message == "No reason given")
        #expect(run.issues.isEmpty)
    }

    @Test func anExceptionOtherThanAnExpectationIsAnErrorPlacedAtItsFirstFrameWhenNoneIsInTheSpec() throws {
        let exception =
            #","exception":{"class":"NoMethodError","message":"undefined method `x'","backtrace":["./lib/a.rb:3:in `x'","./lib/b.rb:9:in `y'"]}"#
        let run = try Self.run(
            Self.report([Self.example("raises", full: "A raises", status: "failed", extra: exception)]))
        let issue = try #require(run.issues.first)
        #expect(issue.message == "NoMethodError: undefined method `x'")
        #expect(issue.kind == .error)
        #expect(issue.file == "lib/a.rb")
        #expect(issue.line == 3)
        #expect(run.runEnd?.outcome == .failed)
    }

    @Test func anExpectationFailureIsAnAssertion() throws {
        let exception =
            #","exception":{"class":"RSpec::Expectations::ExpectationNotMetError","message":"expected: 2\n     got: 1","backtrace":["./spec/a_spec.rb:5:in `block (2 levels)'"]}"#
        let run = try Self.run(
            Self.report([Self.example("is two", full: "A is two", status: "failed", extra: exception)]))
        #expect(run.issues.map(\.kind) == [.assertion])
        #expect(run.issues.map(\.line) == [5])
        #expect(run.issues.map(\.message) == ["RSpec::Expectations::ExpectationNotMetError: expected: 2\n     got: 1"])
    }

    @Test func examplesWithTheSameIDGetNumberedAndAMissingFilePathComesFromTheID() throws {
        let noPath =
            #"{"id":"./spec/c_spec.rb[1:3]","description":"works","full_description":"C works","status":"passed"}"#
        let run = try Self.run(
            Self.report([
                Self.example("works", full: "A works"), Self.example("works", full: "A works"), noPath,
            ]))
        #expect(run.testIDs == ["spec/a_spec.rb:A/works", "spec/a_spec.rb:A/works (2)", "spec/c_spec.rb:C/works"])
        #expect(run.start("spec/c_spec.rb:C/works")?.line == nil)
        #expect(run.end("spec/c_spec.rb:C/works")?.duration == 0)
    }

    @Test func anUnknownStatusIsAnError() throws {
        let run = try Self.run(Self.report([Self.example("odd", full: "A odd", status: "exploded")]))
        #expect(run.outcomes("spec/a_spec.rb:A/odd") == [.error])
        #expect(run.issues.map(\.message) == ["unknown RSpec status 'exploded'"])
        #expect(run.runEnd?.outcome == .failed)
    }

    @Test func errorsOutsideExamplesFailTheRunAndAreWarnedAbout() throws {
        let json =
            #"{"version":"3.13.0","messages":["An error occurred while loading ./spec/x_spec.rb."],"examples":[],"summary":{"duration":0.1,"errors_outside_of_examples_count":1}}"#
        let run = try Self.run(json)
        #expect(run.types == ["run.start", "run.end"])
        #expect(run.runEnd?.outcome == .failed)
        #expect(
            run.warnings == ["input: 1 error(s) outside of examples: An error occurred while loading ./spec/x_spec.rb."]
        )
    }

    @Test func withoutASummaryTheRunEndsWithItsLastExample() throws {
        let run = try Self.run(#"{"version":"3.12.0","examples":["# + Self.example("a", full: "A a") + "]}")
        #expect(run.runEnd == LedgerEvent.RunEnd(at: ImportedRun.start + 0.5, outcome: .passed))
    }

    @Test func theRunCarriesTheMetadata() throws {
        let metadata = RunMetadata(project: "Shop", revision: "abc123", branch: "main", configuration: "ruby 3.3")
        let run = try Self.run(Self.report([]), metadata: metadata)
        #expect(
            run.runStart
                == LedgerEvent.RunStart(
                    at: ImportedRun.start, project: "Shop", source: "rspec", revision: "abc123", branch: "main",
                    configuration: "ruby 3.3"))
    }

    @Test(arguments: [
        ("", "not an RSpec JSON report: the JSON is malformed"),
        ("{\"version\":\"3.13.0\"", "not an RSpec JSON report: the JSON is malformed"),
        (#"{"version":"3.13.0"}"#, "not an RSpec JSON report: examples is missing"),
        (
            #"{"examples":[{"line_number":"four"}]}"#,
            "not an RSpec JSON report: examples[0].line_number is not a number"
        ),
        (#"{"examples":{}}"#, "not an RSpec JSON report: examples is not the expected kind of value"),
        ("[1, 2, 3]", "not an RSpec JSON report: the document is not the expected kind of value"),
    ])
    func malformedReportsAreClearErrors(json: String, problem: String) throws {
        let error = try ImportedRun.failure(Data(json.utf8), with: RSpecImporter())
        #expect(error.problem.hasPrefix(problem), "\(error.problem)")
        #expect(error.source == "input")
        #expect(error.fix == "write it with `rspec --format json --out FILE`")
    }

    @Test func binaryGarbageIsAClearError() throws {
        let bytes = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }
        let error = try ImportedRun.failure(Data(bytes), with: RSpecImporter())
        #expect(error.problem.hasPrefix("not an RSpec JSON report"))
    }

    @Test func hostileDescriptionsStayLiteral() throws {
        let run = try Self.run(
            Self.report([
                Self.example(
                    #"x\"}, {\"type\": \"run.end"#, full: #"Robert'); DROP TABLE tests;-- x\"}, {\"type\": \"run.end"#)
            ]))
        #expect(run.testIDs == [#"spec/a_spec.rb:Robert'); DROP TABLE tests;--/x"}, {"type": "run.end"#])
    }

    @Test func textAfterTheReportIsLeftUnreadWithAWarning() throws {
        let report = Self.report([Self.example("braces { in } text", full: "A braces { in } text", status: "failed")])
        let trailer = "Coverage report generated for RSpec to /app/coverage.\nLine Coverage: 100.0% (14 / 14)\n"
        let run = try Self.run(report + trailer)
        #expect(run.testIDs == ["spec/a_spec.rb:A/braces { in } text"])
        #expect(run.outcomes("spec/a_spec.rb:A/braces { in } text") == [.failed])
        #expect(run.warnings == ["input: \(trailer.utf8.count) byte(s) after the report's JSON object were not read"])
        #expect(try Self.run(report + "\n\n").warnings.isEmpty, "white space after the object is no text")
    }

    @Test func aReportCutShortIsStillRefusedWhateverFollowsIt() throws {
        let cut = String(Self.report([Self.example("a", full: "A a")]).dropLast(30))
        for input in [cut, cut + "\nCoverage report generated\n", "{\"examples\":[{\"id\":\"x\"}"] {
            #expect(throws: LedgerInputError.self, "\(input)") { try Self.run(input) }
        }
    }

    @Test func aReportWithoutAVersionIsReadAsRSpec30WroteIt() throws {
        let old =
            #"{"examples":["# + Self.example("adds", full: "Calculator adds")
            + #"],"summary":{"duration":1.0,"example_count":1,"failure_count":0,"pending_count":0},"summary_line":"1 example, 0 failures"}"#
        #expect(InputFormat.detect(prefix: Data(old.utf8)) == .rspec)
        let run = try Self.run(old)
        #expect(run.testIDs == ["spec/a_spec.rb:Calculator/adds"])
        #expect(run.runEnd?.outcome == .passed)
    }
}
