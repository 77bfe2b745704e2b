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
    func moduleRun(_ run: (_ environment: [String: String]) async throws -> BaconSpecs.Output) async throws -> (
        records: [LedgerRecord], output: BaconSpecs.Output
    ) {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let events = directory.path("events.ndjson")
        let output = try await run(["TESTLEDGER_EVENTS": events])
        return (try BaconSpecs.records(inEventsFile: events), output)
    }

    @Test func specDoxIDsAreTheModulesIDs() async throws {
        let plain = try await BaconSpecs.run(["-s"])
        let parse = try BaconSpecs.parse(plain.stdout)
        let module = try await moduleRun { try await BaconSpecs.run(["-o", "TestLedger"], environment: $0) }
        let written = module.records.events.testStarts
        #expect(written.count == 16)
        #expect(Set(written.map(\.test)) == Set(parse.starts.map(\.test)))
        for start in parse.starts {
            let twin = written.first { $0.test == start.test }
            #expect(twin?.suite == start.suite && twin?.name == start.name, "\(start.test)")
        }
        #expect(module.records.events.outcomes == parse.outcomes())
        #expect(module.output.stdout == plain.stdout, "the module prints exactly what SpecDox prints")
        #expect(module.output.status == plain.status)
    }

    @Test func rubyMotionSpecDoxIDsAreTheModulesIDs() async throws {
        try #require(BaconSpecs.ruby != nil)
        let plain = try await BaconSpecs.runRubyMotion(output: "spec_dox")
        let parse = try BaconSpecs.parse(plain.stdout)
        let module = try await moduleRun { try await BaconSpecs.runRubyMotion(output: "testledger", environment: $0) }
        let written = module.records.events.testStarts
        #expect(written.count == 10)
        #expect(Set(written.map(\.test)) == Set(parse.starts.map(\.test)))
        #expect(
            written.contains { $0.test == "with memory/recalls the last result" },
            "RubyMotion runs nested contexts alone")
        #expect(module.records.events.outcomes == parse.outcomes())
        #expect(parse.issue(of: "Calculator/fails with a message")?.message == "2.==(3) failed")
        #expect(plain.status == 3, "RubyMotion exits with failures + errors")
        #expect(module.output.status == 3)
    }
}
