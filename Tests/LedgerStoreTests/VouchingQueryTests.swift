import Foundation
import LedgerCore
import LedgerStore
import LedgerTestSupport
import Testing

/// Which stored run vouches for a test target's hash: only a run of the base or this branch that
/// ran every listed test of the target with that hash, passed them all, ended and was not cut short.
@Suite struct VouchingQueryTests {
    static let hashes = ["CartTests": "h-cart", "PaymentsTests": "h-pay"]

    /// A run of `branch` that stored both targets: CartTests's `passed` of 2 listed, PaymentsTests 1 of 1.
    static func run(
        branch: String = "main", at: Double, cartPassed: Int = 2, cartHash: String = "h-cart",
        outcome: RunOutcome? = .passed, kind: RunKind? = nil, crash: Bool = false, end: Bool = true
    ) -> RunScript {
        var script = RunScript(project: "Shop", revision: "rev\(Int(at))", at: at).start(branch: branch, kind: kind)
            .pass("CartTests.CartTests/testTotal").pass("PaymentsTests.PaymentsTests/charges()")
        if crash { script = script.with(.testStart(.init(at: at + 1, test: "CartTests.CartTests/testHangs"))) }
        script = script.with(
            .targetRun(.init(at: at + 1, target: "CartTests", hash: cartHash, tests: 2, passed: cartPassed)))
        script = script.with(
            .targetRun(.init(at: at + 1, target: "PaymentsTests", hash: "h-pay", tests: 1, passed: 1)))
        return end ? script.with(.runEnd(.init(at: at + 2, outcome: outcome))) : script
    }

    static func vouches(_ runs: [RunScript], kind: StoreKind, branch: String? = "feature") throws -> [String: Vouch] {
        let ledger = try TemporaryStore(kind)
        defer { ledger.remove() }
        try ledger.ingest(runs.flatMap(\.records))
        return try ledger.database.selectionHistory(
            project: "Shop", hashes: hashes, base: "main", branch: branch, configuration: "", window: 30,
            thresholds: FlakyThresholds()
        ).vouches
    }

    @Test(arguments: StoreKind.available) func theNewestCompletePassingRunVouches(kind: StoreKind) async throws {
        try await onOwnThread {
            let older = Self.run(at: 1_000)
            let newer = Self.run(branch: "feature", at: 2_000)
            let vouches = try Self.vouches([older, newer], kind: kind)
            #expect(vouches["CartTests"] == Vouch(run: newer.run, revision: "rev2000", at: 2_000))
            #expect(vouches["PaymentsTests"]?.run == newer.run)
        }
    }

    @Test(arguments: StoreKind.available) func aRunThatSkippedOrFailedPartOfTheTargetDoesNot(kind: StoreKind)
        async throws
    {
        try await onOwnThread {
            let partial = Self.run(at: 1_000, cartPassed: 1)
            let vouches = try Self.vouches([partial], kind: kind)
            #expect(vouches["CartTests"] == nil)
            #expect(vouches["PaymentsTests"]?.run == partial.run, "the other target was complete")
        }
    }

    @Test(arguments: StoreKind.available) func anInterruptedOrCutShortRunVouchesForNothing(kind: StoreKind)
        async throws
    {
        try await onOwnThread {
            let interrupted = try Self.vouches([Self.run(at: 1_000, outcome: .interrupted)], kind: kind)
            let unended = try Self.vouches([Self.run(at: 1_000, end: false)], kind: kind)
            let crashed = try Self.vouches([Self.run(at: 1_000, crash: true)], kind: kind)
            #expect(interrupted.isEmpty)
            #expect(unended.isEmpty, "never ended")
            #expect(crashed.isEmpty, "a test crashed")
        }
    }

    @Test(arguments: StoreKind.available) func anotherHashBranchOrAVerificationRunDoesNot(kind: StoreKind)
        async throws
    {
        try await onOwnThread {
            // Another toolchain, Package.resolved or configuration makes another hash.
            let otherHash = try Self.vouches([Self.run(at: 1_000, cartHash: "h-other")], kind: kind)
            #expect(otherHash["CartTests"] == nil && otherHash["PaymentsTests"] != nil)
            let otherBranch = try Self.vouches([Self.run(branch: "someone-else", at: 1_000)], kind: kind)
            let verification = try Self.vouches([Self.run(at: 1_000, kind: .verification)], kind: kind)
            #expect(otherBranch.isEmpty)
            #expect(verification.isEmpty)
        }
    }

    @Test(arguments: StoreKind.available) func theRunReportSaysWhatWasLeftOut(kind: StoreKind) async throws {
        try await onOwnThread {
            let ledger = try TemporaryStore(kind)
            defer { ledger.remove() }
            let vouching = Self.run(at: 1_000)
            let reason = RunReport.NotAffected.reason
            let selected = RunScript(project: "Shop", revision: "rev2000", at: 2_000).start(branch: "feature")
                .pass("PaymentsTests.PaymentsTests/charges()")
                .with(.testStart(.init(at: 2_001, test: "CartTests.CartTests/testTotal")))
                .with(
                    .testEnd(
                        .init(
                            at: 2_001, test: "CartTests.CartTests/testTotal", outcome: .skipped, duration: 0,
                            message: reason))
                )
                .with(
                    .targetRun(
                        .init(
                            at: 2_001, target: "CartTests", hash: "h-cart", tests: 2, passed: 0,
                            vouchedBy: vouching.run, skipped: true))
                )
                .with(.runEnd(.init(at: 2_002, outcome: .passed)))
            try ledger.ingest(vouching.records + selected.records)
            let report = try ledger.database.runReport(
                run: selected.run, project: nil, base: "main", window: 30, thresholds: FlakyThresholds(), now: 3_000)
            #expect(
                report.notAffected
                    == RunReport.NotAffected(
                        tests: 1,
                        vouchedBy: [
                            Vouch(run: vouching.run, revision: "rev1000", at: 1_000)
                        ]))
            #expect(
                report.notAffected?.sentence
                    == "1 test not run: their code did not change since run \(vouching.run.prefix(3))… (rev1000)")
            let selection = try ledger.database.selectionReport(project: "Shop", runs: 30)
            #expect(selection.runs.map(\.run) == [selected.run])
            #expect(selection.runs.first?.mode == .selected)
            #expect(selection.runs.first?.savedSeconds == 0.01, "what CartTests took in the vouching run")
            // A full run since, which stored its targets' hashes only, neither selected nor observed.
            try ledger.ingest(Self.run(at: 3_000).records)
            #expect(try ledger.database.selectionReport(project: "Shop", runs: 1).runs.map(\.run) == [selected.run])
        }
    }
}
