import Foundation
import TestLedger
import Testing

/// Swift Testing tests with several top-level steps, nested and asynchronous steps, steps that
/// throw, `eventually` checks and captures, serial and side by side. Each test counts what it
/// recorded itself and, when `FIXTURE_TALLY` names a file, appends the count there, so what the
/// ledger stored can be checked against what the tests did.
enum Tally {
    /// What one test (or one case) recorded.
    struct Counts {
        var activities = 0
        var captures = 0
        var predicates = 0
    }

    /// Appends `suite/test activities captures predicates` to the tally file, in one write.
    static func note(_ suite: String, _ test: String, _ counts: Counts) {
        guard let path = ProcessInfo.processInfo.environment["FIXTURE_TALLY"] else { return }
        let line = "\(suite)/\(test) \(counts.activities) \(counts.captures) \(counts.predicates)\n"
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = line.withCString { write(descriptor, $0, strlen($0)) }
    }
}

/// A step that counts itself.
private func step<Value>(_ name: String, _ counts: inout Counts, _ body: (inout Counts) throws -> Value) rethrows
    -> Value
{
    counts.activities += 1
    return try TestLedger.activity(name) { try body(&counts) }
}

private typealias Counts = Tally.Counts

private struct CheckoutFailed: Error {}

@Suite(.serialized) struct SerialStepsTests {
    @Test func threeTopLevelStepsWithACheckAndACapture() async throws {
        var counts = Counts()
        defer { Tally.note("SerialStepsTests", #function, counts) }
        step("Open the shop", &counts) { _ in }
        counts.activities += 1
        let shown = await TestLedger.activity("Show the basket") { () async -> Bool in
            await eventually("basket shown", timeout: 0.5) { true }
        }
        counts.predicates += 1
        #expect(shown)
        step("Pay", &counts) { counts in
            TestLedger.capture(
                AlertCapture(
                    title: "Pay £4.50?", message: nil, preferredStyle: .alert,
                    actions: [.init(title: "Pay", style: .default)], animated: true,
                    presentingController: "BasketViewController", presentedCount: 1))
            counts.captures += 1
        }
    }

    @Test func nestedStepsWithChecksAndCapturesAtEveryLevel() throws {
        var counts = Counts()
        defer { Tally.note("SerialStepsTests", #function, counts) }
        try step("Sign in", &counts) { counts in
            try step("Type the name", &counts) { counts in
                TestLedger.capture(verifier: "FakeKeyboard", fields: ["typed": "ada"])
                counts.captures += 1
                try step("Wait for the field", &counts) { counts in
                    #expect(eventually("field focused", timeout: 0.5) { true })
                    counts.predicates += 1
                    _ = try #require(Int("1"))
                }
            }
            #expect(eventually("signed in", timeout: 0.5) { true })
            counts.predicates += 1
        }
        TestLedger.capture(verifier: "FakeSession", fields: ["user": "ada"])
        counts.captures += 1
        #expect(eventually("spinner gone", timeout: 0.5) { true })
        counts.predicates += 1
        step("Sign out", &counts) { _ in }
    }

    @Test func aStepThatThrowsKeepsTheStepsAroundIt() {
        var counts = Counts()
        defer { Tally.note("SerialStepsTests", #function, counts) }
        step("Fill the basket", &counts) { _ in }
        do {
            try step("Check out", &counts) { counts in
                try step("Charge the card", &counts) { _ in throw CheckoutFailed() }
            }
        } catch {
            TestLedger.capture(verifier: "FakePayments", fields: ["declined": true])
            counts.captures += 1
        }
        step("Show the receipt", &counts) { _ in }
    }
}

@Suite struct ParallelStepsTests {
    @Test func asyncStepsAcrossAwaits() async throws {
        var counts = Counts()
        defer { Tally.note("ParallelStepsTests", #function, counts) }
        for index in 1...3 {
            counts.activities += 2
            try await TestLedger.activity("Load page \(index)") {
                try await Task.sleep(nanoseconds: 2_000_000)
                try await TestLedger.activity("Decode page \(index)") {
                    try await Task.sleep(nanoseconds: 1_000_000)
                    TestLedger.capture(verifier: "FakeFeed", fields: ["page": .number(Double(index))])
                }
            }
            counts.captures += 1
        }
        let loaded = await eventually("feed loaded", timeout: 0.5) { true }
        counts.predicates += 1
        #expect(loaded)
    }

    @Test func stepsRunningSideBySideInOneTest() async throws {
        var counts = Counts()
        defer { Tally.note("ParallelStepsTests", #function, counts) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for name in ["Fetch prices", "Fetch stock", "Fetch offers"] {
                group.addTask {
                    try await TestLedger.activity(name) {
                        try await Task.sleep(nanoseconds: 3_000_000)
                        TestLedger.capture(verifier: "FakeClient", fields: ["request": .string(name)])
                        _ = await eventually("\(name) answered", timeout: 0.5) { true }
                    }
                }
            }
            try await group.waitForAll()
        }
        counts.activities += 3
        counts.captures += 3
        counts.predicates += 3
    }

    @Test(arguments: ["kitchen", "family room", "garden"])
    func eachCaseRecordsItsOwnSteps(room: String) async throws {
        var counts = Counts()
        defer { Tally.note("ParallelStepsTests", "eachCaseRecordsItsOwnSteps(room:)", counts) }
        try await TestLedger.activity("Measure the \(room)") {
            try await Task.sleep(nanoseconds: 2_000_000)
            try await TestLedger.activity("Quote the \(room)") {
                TestLedger.capture(verifier: "FakeQuote", fields: ["room": .string(room)])
                try await Task.sleep(nanoseconds: 1_000_000)
            }
        }
        counts.activities += 2
        counts.captures += 1
        #expect(await eventually("\(room) quoted", timeout: 0.5) { true })
        counts.predicates += 1
    }
}

/// Crashes the process inside its second step when `FIXTURE_KILL=1`: the first step, already
/// written, must stay.
@Suite struct SwiftTestingKillTests {
    @Test func crashesInItsSecondStep() {
        guard ProcessInfo.processInfo.environment["FIXTURE_KILL"] == "1" else { return }
        TestLedger.activity("Written before the crash") {
            TestLedger.capture(verifier: "FakeStore", fields: ["saved": true])
        }
        TestLedger.activity("Crashes") {
            fatalError("the fixture crashes here")
        }
    }
}
