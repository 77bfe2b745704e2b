import Foundation
import LedgerCore
import LedgerImport
import LedgerTestSupport
import Testing

/// The same spec gets the same test id from the Ruby output module and from the SpecDox parser,
/// so a suite recorded both ways (or one way, then the other) keeps one history per spec.
@Suite(.enabled(if: BaconSpecs.bacon != nil, BaconSpecs.skipReason))
struct BaconIdentityTests {
    /// What the module wrote into a TESTLEDGER_EVENTS file, and what was printed meanwhile.
    func moduleRun(_ run: (_ environment: [String: String]) throws -> BaconSpecs.Output) throws -> (
        records: [LedgerRecord], output: BaconSpecs.Output
    ) {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let events = directory.path("events.ndjson")
        let output = try run(["TESTLEDGER_EVENTS": events])
        return (try BaconSpecs.records(inEventsFile: events), output)
    }

    func starts(_ records: [LedgerRecord]) -> [LedgerEvent.TestStart] {
        records.compactMap { if case .testStart(let start) = $0.event { start } else { nil } }
    }

    func outcomes(_ records: [LedgerRecord]) -> [String: Outcome] {
        Dictionary(
            records.compactMap { if case .testEnd(let end) = $0.event { (end.test, end.outcome) } else { nil } },
            uniquingKeysWith: { first, _ in first })
    }

    @Test func specDoxIDsAreTheModulesIDs() throws {
        let plain = try BaconSpecs.run(["-s"])
        let parse = try BaconSpecs.parse(plain.stdout)
        let module = try moduleRun { try BaconSpecs.run(["-o", "TestLedger"], environment: $0) }
        let written = starts(module.records)
        #expect(written.count == 16)
        #expect(Set(written.map(\.test)) == Set(parse.starts.map(\.test)))
        for start in parse.starts {
            let twin = written.first { $0.test == start.test }
            #expect(twin?.suite == start.suite && twin?.name == start.name, "\(start.test)")
        }
        #expect(outcomes(module.records) == parse.outcomes())
        #expect(module.output.stdout == plain.stdout, "the module prints exactly what SpecDox prints")
        #expect(module.output.status == plain.status)
    }

    @Test func rubyMotionSpecDoxIDsAreTheModulesIDs() throws {
        try #require(BaconSpecs.ruby != nil)
        let plain = try BaconSpecs.runRubyMotion(output: "spec_dox")
        let parse = try BaconSpecs.parse(plain.stdout)
        let module = try moduleRun { try BaconSpecs.runRubyMotion(output: "testledger", environment: $0) }
        let written = starts(module.records)
        #expect(written.count == 10)
        #expect(Set(written.map(\.test)) == Set(parse.starts.map(\.test)))
        #expect(
            written.contains { $0.test == "with memory/recalls the last result" },
            "RubyMotion runs nested contexts alone")
        #expect(outcomes(module.records) == parse.outcomes())
        #expect(parse.issue(of: "Calculator/fails with a message")?.message == "2.==(3) failed")
        #expect(plain.status == 3, "RubyMotion exits with failures + errors")
        #expect(module.output.status == 3)
    }
}
