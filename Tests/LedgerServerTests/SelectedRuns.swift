import LedgerCore
import LedgerTestSupport

/// Two runs of `record --select` in `project`: one on main that ran both test targets and vouches
/// for CartTests, then one on a branch that left CartTests out, vouched for by the first.
struct SelectedRuns {
    let vouching: RunScript
    let selected: RunScript

    init(project: String, cartSeconds: Double = 0.01) {
        vouching = RunScript(project: project, revision: "1a2b3c4d5e", at: 1_700_000_000).start(branch: "main")
            .pass("CartTests.CartTests/testTotal", duration: cartSeconds).pass("PaymentsTests.PaymentsTests/charges()")
            .with(.targetRun(.init(at: 1_700_000_001, target: "CartTests", hash: "h", tests: 1, passed: 1)))
            .end()
        selected = RunScript(project: project, at: 1_700_003_600).start(branch: "feature")
            .pass("PaymentsTests.PaymentsTests/charges()")
            .result("CartTests.CartTests/testTotal", .skipped, duration: 0)
            .with(
                .targetRun(
                    .init(
                        at: 1_700_003_601, target: "CartTests", hash: "h", tests: 1, passed: 0,
                        vouchedBy: vouching.run, skipped: true))
            )
            .end()
    }
}
