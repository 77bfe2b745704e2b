import Foundation
import LedgerCore
import LedgerImport
import Testing

/// ``BaconOutputParser`` on what `bacon -k` and `bacon -q` really printed for the fixture suite.
@Suite(.enabled(if: BaconSpecs.bacon != nil, BaconSpecs.skipReason))
struct BaconKnockAndQuietTests {
    @Test func knockSpecsAreNamedByTheirRequirementAlone() async throws {
        let output = try await BaconSpecs.run(["-k"])
        #expect(output.status == 1)
        let parse = try BaconSpecs.parse(output.stdout)
        let names = Set(BaconSpecDoxTests.expectedIDs.map { String($0.split(separator: "/").last ?? "") })
        #expect(Set(parse.starts.map(\.test)) == names)
        #expect(parse.starts.allSatisfy { $0.suite == nil })
        #expect(parse.ends.count == 16)
        #expect(parse.parser.style == .knock)
        #expect(parse.parser.summary == nil)
    }

    @Test func knockBacktracesAttachToTheSpecAbove() async throws {
        let parse = try BaconSpecs.parse(try await BaconSpecs.run(["-k"]).stdout)
        let outcomes = parse.outcomes()
        #expect(outcomes["fails"] == .failed)
        #expect(outcomes["raises"] == .error)
        #expect(outcomes["asserts nothing"] == .skipped)
        let failed = try #require(parse.issue(of: "fails"))
        #expect(failed.message == "2.==(3) failed")
        #expect(failed.file == "spec/outcomes_spec.rb")
        #expect(failed.line == 7)
        #expect(parse.issue(of: "raises")?.message == "ArgumentError: boom")
        #expect(parse.issue(of: "asserts nothing")?.line == 14)
    }

    @Test func knockHasNoSummarySoTheEndOfTheOutputEndsTheRun() async throws {
        let parse = try BaconSpecs.parse(try await BaconSpecs.run(["-k"]).stdout)
        #expect(parse.runEnds.map(\.outcome) == [.failed])
        let passing = try BaconSpecs.parse("ok - adds\nnot ok - checks nothing: MISSING\n")
        #expect(passing.runEnds.map(\.outcome) == [.passed], "an empty spec does not fail the run")
    }

    @Test func quietOutputRecordsTheRunAndTheSpecsItNames() async throws {
        let output = try await BaconSpecs.run(["-q"])
        #expect(output.status == 1)
        let parse = try BaconSpecs.parse(output.stdout, startedAt: 1_000)
        #expect(parse.parser.summary == BaconSummary(specifications: 16, requirements: 15, failures: 1, errors: 1))
        #expect(parse.parser.style == .testUnit)
        // Only the specs that did not pass are named, by their ErrorLog entries; the ids are SpecDox's.
        #expect(parse.starts.map(\.test) == ["Outcomes/fails", "Outcomes/raises", "Outcomes/asserts nothing"])
        #expect(parse.end(of: "Outcomes/fails")?.outcome == .failed)
        #expect(parse.end(of: "Outcomes/fails")?.message == "2.==(3) failed")
        #expect(parse.end(of: "Outcomes/raises")?.outcome == .error)
        #expect(parse.end(of: "Outcomes/raises")?.message == "ArgumentError: boom")
        #expect(parse.end(of: "Outcomes/asserts nothing")?.outcome == .skipped)
        #expect(parse.issue(of: "Outcomes/asserts nothing")?.kind == .missing)
        #expect(parse.issue(of: "Outcomes/fails")?.file == "spec/outcomes_spec.rb")
        #expect(parse.issue(of: "Outcomes/fails")?.line == 7)
        let end = try #require(parse.runEnds.first)
        #expect(end.outcome == .failed)
        #expect(end.counts == LedgerEvent.RunnerCounts(tests: 16, failures: 1, errors: 1), "Bacon's own totals")
        #expect(end.at > 1_000.2 && end.at < 1_010, "the run lasts what `Finished in` says")
        #expect(parse.parser.notes.count == 1)
        #expect(parse.parser.notes.first?.contains("16 tests counted, 3 recorded") == true)
    }

    @Test func colorizedOutputReadsLikeQuietOutput() async throws {
        let text = """
            \u{1B}[0;32m.\u{1B}[00m\u{1B}[0;31mF\u{1B}[00m

            Bacon::Error: 1.==(2) failed
            \tspec/a_spec.rb:3: A - b


            Finished in 0.10 seconds.
            \u{1B}[0;31m2 tests, 2 assertions, 1 failures, 0 errors\u{1B}[00m

            """
        let parse = try BaconSpecs.parse(text, startedAt: 10)
        #expect(parse.parser.summary == BaconSummary(specifications: 2, requirements: 2, failures: 1, errors: 0))
        #expect(parse.runEnds.map(\.outcome) == [.failed])
        #expect(parse.runEnds.first?.at == 10.1)
        #expect(parse.starts.map(\.test) == ["A/b"])
        #expect(parse.end(of: "A/b")?.message == "1.==(2) failed" && parse.issue(of: "A/b")?.line == 3)
    }
}
