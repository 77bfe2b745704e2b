import LedgerCore
import LedgerServer
import LedgerTestSupport
import Testing

/// Four runs of Shop on one revision, sent through the real endpoint: `Cart/flips` fails in the
/// second (its `eventually` check timing out there), with nested activities and an alert
/// capture every time; a test whose name is markup fails in every run (so it is listed as broken).
enum DashboardSeed {
    static let project = "Shop"
    static let flaky = "Cart/flips"
    static let hostile = "Hostile/<script>alert(1)</script>"
    static let failure = "Expected <b>1</b> & got 0"
    static let outcomes: [Outcome] = [.passed, .failed, .passed, .passed]

    static func run(_ index: Int) -> RunScript {
        let at = 1_700_000_000 + Double(index) * 3_600
        let outcome = outcomes[index]
        let held = outcome.isPass
        let test = flaky
        var script = RunScript(project: project, revision: "abc123", at: at).start()
            .pass("Cart/adds")
            .with(.testStart(.init(at: at, test: test)))
            .with(.activityStart(.init(at: at, test: test, activity: "a1", name: "Open the cart")))
            .with(
                .activityStart(.init(at: at, test: test, activity: "a2", parent: "a1", name: "Tap <Checkout> & wait"))
            )
            .with(
                .capture(
                    .init(
                        at: at, test: test, verifier: "AlertVerifier", activity: "a2",
                        fields: .object(["title": .string("Pay \"now\"?"), "actions": .array([.string("OK")])])))
            )
            .with(
                .predicate(
                    .init(
                        at: at, test: test, name: "cart badge shows 1", expect: .holds, held: held,
                        attempts: held ? 3 : 10, waited: held ? 0.6 : 2, timeout: 2, activity: "a2"))
            )
            .with(
                .attachment(
                    .init(
                        at: at + 0.4, test: test, name: "Cart <screen>.png", mediaType: "image/png", size: 48_213,
                        activity: "a2"))
            )
            .with(.activityEnd(.init(at: at + 0.5, activity: "a2", outcome: outcome)))
            .with(.activityEnd(.init(at: at + 0.6, activity: "a1", outcome: outcome)))
        if !held {
            script = script.with(.issue(.init(at: at + 0.6, test: test, message: failure, file: "Cart.swift", line: 9)))
        }
        return
            script
            .with(.testEnd(.init(at: at + 0.7, test: test, outcome: outcome, duration: 0.7)))
            .fail(hostile)
            .result("ShopUITests/Login/works", .passed, duration: 2, layer: .ui)
            .end()
    }

    /// Sends the four runs; returns their ids, oldest first.
    @discardableResult
    static func send(to server: LiveServer) async throws -> [String] {
        let write = try server.token(project, .write)
        var runs: [String] = []
        for index in outcomes.indices {
            let script = run(index)
            let answer = try await server.post("/api/v1/events", token: write, script.ndjson)
            #expect(answer.status == 201, "\(answer.body)")
            runs.append(script.run)
        }
        return runs
    }
}
