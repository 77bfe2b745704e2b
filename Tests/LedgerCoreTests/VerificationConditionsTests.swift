import Testing

@testable import LedgerCore

/// What a verification recreates of a test's failing conditions, and what it names as missing.
struct VerificationConditionsTests {
    func brief(_ kind: CulpritReport.Kind, _ name: String) -> CulpritReport.Brief {
        let suspect = CulpritReport.Suspect(
            kind: kind, name: name, evidence: "", score: 1, failing: .init(count: 6, of: 6),
            passing: .init(count: 0, of: 6), p: 0.001, precision: 1, recall: 1)
        return CulpritReport.Brief(verdict: .suspects, failingAttempts: 6, passingAttempts: 6, suspect: suspect)
    }

    @Test func aPrecedingTestRunsBeforeIt() {
        let conditions = VerificationConditions(
            culprit: brief(.precedingTest, "CartTests/testClears"), host: "ci-linux-1", configuration: nil)
        #expect(conditions.runsBefore == ["CartTests/testClears"] && conditions.missing.isEmpty)
    }

    @Test func anotherHostOrConfigurationIsNamed() {
        let host = VerificationConditions(culprit: brief(.host, "ci-mac-3"), host: "ci-linux-1", configuration: nil)
        #expect(host.missing == ["failures came from host ci-mac-3; this is ci-linux-1"] && host.runsBefore.isEmpty)
        let configuration = VerificationConditions(
            culprit: brief(.configuration, "iPhone 15 / iOS 18"), host: nil, configuration: "iPad / iOS 18")
        #expect(
            configuration.missing == [
                "failures came from configuration iPhone 15 / iOS 18; this run's is iPad / iOS 18"
            ])
        let unnamed = VerificationConditions(culprit: brief(.configuration, "iPhone 15"), host: nil, configuration: nil)
        #expect(unnamed.missing == ["failures came from configuration iPhone 15; this run names none"])
    }

    @Test func theSameHostOrConfigurationOrAnotherKindOfSuspectChangesNothing() {
        for culprit in [
            brief(.host, "ci-mac-3"), brief(.configuration, "iPhone 15"), brief(.activity, "Sign in"), nil,
        ] {
            let conditions = VerificationConditions(culprit: culprit, host: "ci-mac-3", configuration: "iPhone 15")
            #expect(conditions.runsBefore.isEmpty && conditions.missing.isEmpty, "\(String(describing: culprit))")
        }
    }
}
