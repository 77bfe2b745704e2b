import Foundation
import LedgerCore
import LedgerImport
import LedgerTestSupport
import Testing

/// The real `rspec --format json` sample (dorny/test-reporter's fixture), read in place from
/// ../shared/fixtures/formats and checked field by field.
@Suite(.enabled(if: FixtureFiles.available, Comment(rawValue: FixtureFiles.skipReason)))
struct RSpecFixtureTests {
    static let start = ImportedRun.start
    static let file = "spec/config/check_env_vars_spec.rb"
    static let group = "CheckEnvVars#call when all env vars are defined behaves like success load"

    @Test func everyExampleBecomesATestWithItsGroupPathFileLineAndTime() throws {
        let url = try #require(FixtureFiles.url("rspec.json"))
        let run = try ImportedRun.importing(Data(contentsOf: url), with: RSpecImporter(), sourceName: "rspec.json")
        let id = { (name: String) in "\(Self.file):\(Self.group)/\(name)" }
        #expect(run.runStart == LedgerEvent.RunStart(at: Self.start, project: "Demo", source: "rspec"))
        #expect(run.testIDs == [id("logs success message"), id("fails in assertion"), id("skips the test")])
        #expect(run.starts.allSatisfy { $0.suite == Self.group && $0.file == Self.file && $0.attempt == 1 })
        #expect(run.starts.map(\.name) == ["logs success message", "fails in assertion", "skips the test"])
        #expect(run.starts.map(\.line) == [12, 17, 27])
        #expect(run.ends.map(\.outcome) == [.passed, .failed, .skipped])
        #expect(run.ends.map(\.duration) == [0.079159625, 0.004411051, 2.3007e-05])
        #expect(run.starts.map(\.at) == [Self.start, Self.start + 0.079159625, Self.start + 0.079159625 + 0.004411051])
        #expect(run.end(id("skips the test"))?.message == "Temporarily skipped with xit")

        let issue = try #require(run.issues(id("fails in assertion")).first)
        #expect(
            issue.message
                == "RSpec::Mocks::MockExpectationError: (#ActiveSupport::BroadcastLogger:0x00007f1007fedf58)"
                + ".debug(\"All config env vars exist\")\n    expected: 0 times with arguments: "
                + "(\"All config env vars exist\")\n    received: 1 time with arguments: (\"All config env vars exist\")"
        )
        // The first backtrace frame in the example's spec file, not the gem's frame before it.
        #expect(issue.file == Self.file)
        #expect(issue.line == 7)
        #expect(issue.kind == .assertion)
        #expect(issue.at == Self.start + 0.079159625)
        #expect(
            run.end(id("fails in assertion"))?.message?.hasPrefix(
                "/usr/local/bundle/ruby/3.3.0/gems/net-http-0.4.1/lib/net/http.rb:1603:in `initialize'\n") == true)
        #expect(run.issues.count == 1)
        // run.end: the start plus the summary's duration, longer than the examples' sum.
        #expect(run.runEnd == LedgerEvent.RunEnd(at: Self.start + 0.19118387, outcome: .failed))
        #expect(run.warnings.isEmpty)
        #expect(run.attemptsAreWellFormed && run.timesAreConsistent)
    }
}
