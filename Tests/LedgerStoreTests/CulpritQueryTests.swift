import Foundation
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

/// `report culprit` from a store: the planted history ingested as event streams gives the same
/// report as the analysis of the attempts it was generated from.
@Suite struct CulpritQueryTests {
    static let history = PlantedCulprits(seed: 5, runs: 40, variants: 1)

    @Test(arguments: StoreKind.available) func theStoreGivesTheReportOfTheAttemptsItHolds(kind: StoreKind) async throws
    {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            try ledger.ingest(streams: Self.history.files())
            for (test, _) in Self.history.tests {
                let stored = try ledger.database.culpritReport(test: test, project: "Feed", runs: 60, since: nil)
                let expected = CulpritAnalysis.report(
                    test: test, configuration: "*", attempts: Self.history.storedAttempts[test] ?? [], runs: 40)
                #expect(stored == expected, "\(test)")
            }
            // One configuration: fewer runs, and the configuration is no longer a suspect.
            let test = try #require(Self.history.tests.first { $0.planted == .cause(.configuration) }?.id)
            let iPad = try ledger.database.culpritReport(
                test: test, project: "Feed", runs: 60, since: nil, configuration: "iPad / iOS 18")
            #expect(iPad.configuration == "iPad / iOS 18" && iPad.runs < 40)
            #expect(!iPad.suspects.contains { $0.kind == .configuration })
            #expect(throws: StoreError.self) {
                try ledger.database.culpritReport(test: "Nope/test", project: "Feed", runs: 60, since: nil)
            }
        }
    }
}
