import Foundation
import LedgerCore
import LedgerImport
import LedgerTestSupport
import Testing

/// The real TAP samples (tapjs's parser fixtures), read in place from ../shared/fixtures/formats
/// and checked field by field.
@Suite(.enabled(if: FixtureFiles.available, Comment(rawValue: FixtureFiles.skipReason)))
struct TAPFixtureTests {
    static let start = ImportedRun.start

    static func importFixture(_ name: String) throws -> ImportedRun {
        let url = try #require(FixtureFiles.url(name), "\(name) is missing from the samples folder")
        return try ImportedRun.importing(Data(contentsOf: url), with: TAPImporter(), sourceName: name)
    }

    @Test func bailOutKeepsTheTestsBeforeItAndLeavesTheRunWithoutAnEnd() throws {
        let run = try Self.importFixture("tap12-bailout.tap")
        #expect(run.runStart?.source == "tap")
        #expect(run.runStart?.at == Self.start)
        #expect(run.testIDs == ["test 1", "test 2", "test 3"])
        #expect(run.ends.map(\.outcome) == [.passed, .passed, .passed])
        #expect(run.starts.map(\.name) == ["test 1", "test 2", "test 3"])
        #expect(run.starts.allSatisfy { $0.suite == "tap" && $0.at == Self.start })
        #expect(run.ends.allSatisfy { $0.duration == 0 })
        // `ok 4` and `ok 5` come after the bail-out: ignored, and the run stays interrupted.
        #expect(run.runEnd == nil)
        #expect(run.types.last == "test.end")
        #expect(
            run.warnings == [
                "tap12-bailout.tap: line 5: Bail out! GERONIMMMOOOOOO!!!: the run stopped here; it has no end"
            ])
    }

    @Test func nodeTestRunnerFailuresCarryTheirYAMLMessageLocationStackAndDuration() throws {
        let run = try Self.importFixture("tap13-node-test-runner.tap")
        let throws_ = "uhoh, this one throws"
        let nested = "A thing/nesting suite"
        // "A thing" closes a subtest whose test failed: a suite, not a test.
        #expect(run.testIDs == [throws_, nested])
        #expect(run.outcomes(throws_) == [.failed])
        let start = try #require(run.start(throws_))
        #expect(start.file == "/path/to/node-test-example/test/node.test.js")
        #expect(start.line == 35)
        #expect(start.name == "uhoh, this one throws")
        #expect(start.suite == "tap")
        let issue = try #require(run.issues(throws_).first)
        #expect(issue.message == "Invalid time value")
        // The first stack frame in the test's own file, not `Date.toISOString` or lib/index.mjs.
        #expect(issue.file == "/path/to/node-test-example/test/node.test.js")
        #expect(issue.line == 38)
        #expect(issue.kind == .assertion)
        let end = try #require(run.end(throws_))
        #expect(ImportedRun.close(end.duration, 0.000711))
        #expect(end.message?.hasPrefix("Date.toISOString (<anonymous>)\nthrower (file:///path/") == true)

        #expect(run.start(nested)?.suite == "A thing")
        #expect(run.start(nested)?.line == 65)
        #expect(run.issues(nested).map(\.message) == ["ok"])
        #expect(run.issues(nested).map(\.line) == [66])
        #expect(ImportedRun.close(run.end(nested)?.duration, 0.000036708))
        #expect(ImportedRun.close(run.end(nested)?.at, Self.start + 0.000711 + 0.000036708))
        #expect(run.runEnd?.outcome == .failed)
        #expect(ImportedRun.close(run.runEnd?.at, Self.start + 0.000711 + 0.000036708))
        #expect(run.warnings.isEmpty)
        #expect(run.attemptsAreWellFormed && run.timesAreConsistent)
    }

    @Test func nodeTapIndentedSubtestsBecomeSuitePathsWithSkipTodoAndTimes() throws {
        let run = try Self.importFixture("tap13-indent-skip-todo-yaml-time.tap")
        let grand = "second / this passes"
        #expect(
            run.testIDs == [
                "first/true is ok", "first/doag is also okay", "second/no plan", "\(grand)/granddaughter",
                "\(grand)/grandson", "\(grand)/grandchild",
            ])
        #expect(
            run.ends.map(\.outcome) == [.passed, .passed, .passed, .skipped, .passed, .expectedFailure])
        #expect(run.start("\(grand)/grandson")?.suite == grand)
        #expect(run.start("first/true is ok")?.name == "true is ok")
        // `# time=1.234ms` and `# time=1.001s` are durations; the tests follow one another.
        #expect(run.ends.map(\.duration) == [0.001234, 0.001234, 0.001001, 0, 1.001, 0])
        #expect(ImportedRun.close(run.start("\(grand)/grandson")?.at, Self.start + 0.003469))
        #expect(run.end("\(grand)/granddaughter")?.message == "for no raisin")
        #expect(run.end("\(grand)/grandchild")?.message == nil)
        #expect(run.issues.isEmpty, "a skipped `not ok` and a `not ok # TODO` are not failures")
        // The last YAML block has no `...`: the next, shallower line closes it.
        #expect(
            run.warnings == [
                "tap13-indent-skip-todo-yaml-time.tap: line 21: the YAML block ended without `...`; kept what was read"
            ])
        #expect(run.runEnd?.outcome == .passed)
        #expect(ImportedRun.close(run.runEnd?.at, Self.start + 0.003469 + 1.001))
        #expect(run.attemptsAreWellFormed && run.timesAreConsistent)
    }

    @Test func tap14NestedSubtestsNameTheirTestsAndPassingTodosArePasses() throws {
        let run = try Self.importFixture("tap14-nested-subtests-todo.tap")
        let first = "a set of tests to be done later"
        let subset = "\(first) / the subset"
        let deepest = "\(subset) / has some of these things"
        #expect(
            run.testIDs == [
                "\(first)/should have a thingie", "\(first)/should have a second whoosits also",
                "\(subset)/should be a child thingie", "\(subset)/should also be a whoosits",
                "\(deepest)/true is truthy", "\(deepest)/ten is also truthy",
                "another set of tests/is a second set", "another set of tests/looks like english",
                "another set of tests/is marked TODO",
            ])
        #expect(run.ends.allSatisfy { $0.outcome == .passed })
        #expect(run.ends.filter { $0.message == "TODO passed" }.count == 7)
        #expect(run.start("\(deepest)/true is truthy")?.suite == deepest)
        #expect(run.runEnd == LedgerEvent.RunEnd(at: Self.start, outcome: .passed))
        #expect(run.warnings.isEmpty)
    }
}
