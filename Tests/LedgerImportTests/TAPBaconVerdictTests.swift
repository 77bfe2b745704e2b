import LedgerCore
import Testing

@testable import LedgerImport

@Suite struct TAPBaconVerdictTests {
    @Test func baconsVerdictsKeepTheSpecsName() throws {
        let run = try TAPSamples.run(
            """
            ok 1   - is empty
            not ok 2 - has one item: FAILED
            not ok 3 - proves nothing: MISSING
            not ok 4 - loads: ERROR: NoMethodError
            not ok 5 - waits: FAILED - timeout exceeded: Loader - waits
            1..5
            """)
        #expect(run.testIDs == ["is empty", "has one item", "proves nothing", "loads", "waits"])
        #expect(run.outcomes("has one item") == [.failed])
        #expect(run.outcomes("proves nothing") == [.skipped])
        #expect(run.issues("proves nothing").map(\.kind) == [.missing])
        #expect(run.outcomes("loads") == [.error])
        #expect(run.issues("loads").first?.message == "NoMethodError")
        #expect(run.issues("waits").first?.message == "timeout exceeded: Loader - waits")
    }

    @Test func otherProducersDescriptionsAreLeftAlone() {
        #expect(BaconTAPVerdict(description: "parses key: value pairs") == nil)
        #expect(BaconTAPVerdict(description: "reports FAILED builds") == nil)
    }
}
