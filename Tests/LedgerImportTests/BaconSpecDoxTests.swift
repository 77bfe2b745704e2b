import Foundation
import LedgerCore
import LedgerImport
import Testing

/// ``BaconOutputParser`` on what `bacon -s` really printed for the fixture suite.
@Suite(.enabled(if: BaconSpecs.bacon != nil, BaconSpecs.skipReason))
struct BaconSpecDoxTests {
    static let specDox = Task { try? await BaconSpecs.run(["-s"]) }

    /// Every spec of the fixture, as `<context path>/<requirement>`.
    static let expectedIDs: Set<String> = [
        "Login screen/shows its title", "Login screen after a tap/still shows its title",
        "Cart/starts empty", "Cart with one book/counts one item",
        "Cart with one book and a coupon/still counts one item", "Cart/is back at the top level",
        "Outcomes/passes", "Outcomes/fails", "Outcomes/raises", "Outcomes/asserts nothing",
        "Checkout/records nested activities and a capture", "Checkout/marks the activity a failure happened in",
        "Checkout/waits for a total that arrives late", "Checkout/gives up on a receipt that never prints",
        "Checkout/waits for the spinner to stop", "Slow/sleeps 50 ms",
    ]

    func parsed() async throws -> BaconParse {
        try BaconSpecs.parse(try #require(await Self.specDox.value).stdout)
    }

    @Test func countsMatchBaconsOwnSummary() async throws {
        let output = try #require(await Self.specDox.value)
        #expect(output.status == 1, "Bacon exits 1 when a spec failed")
        let parse = try BaconSpecs.parse(output.stdout)
        let summary = try #require(parse.parser.summary)
        #expect(summary == BaconSummary(specifications: 16, requirements: 15, failures: 1, errors: 1))
        #expect(parse.starts.count == summary.specifications)
        #expect(parse.ends.count == summary.specifications)
        #expect(parse.ends.filter { $0.outcome == .failed }.count == summary.failures)
        #expect(parse.ends.filter { $0.outcome == .error }.count == summary.errors)
        #expect(parse.runEnds.map(\.outcome) == [.failed])
        #expect(parse.runEnds.first?.counts == nil, "SpecDox names every spec: no totals beside them")
        #expect(parse.parser.style == .specDox)
        #expect(parse.parser.notes.isEmpty)
    }

    @Test func contextsNestByIndentation() async throws {
        let parse = try await parsed()
        #expect(Set(parse.starts.map(\.test)) == Self.expectedIDs)
        let coupon = try #require(parse.starts.first { $0.name == "still counts one item" })
        #expect(coupon.suite == "Cart with one book and a coupon")
        #expect(coupon.test == "Cart with one book and a coupon/still counts one item")
        let backOut = try #require(parse.starts.first { $0.name == "is back at the top level" })
        #expect(backOut.suite == "Cart")
    }

    @Test func tagsGiveTheOutcomes() async throws {
        let outcomes = try await parsed().outcomes()
        #expect(outcomes["Outcomes/passes"] == .passed)
        #expect(outcomes["Outcomes/fails"] == .failed)
        #expect(outcomes["Outcomes/raises"] == .error)
        #expect(outcomes["Outcomes/asserts nothing"] == .skipped, "an empty spec proves nothing: skipped")
        #expect(outcomes.values.filter { $0 == .passed }.count == 13)
    }

    @Test func errorLogEntriesAttachMessagesAndPlacesToTheirSpecs() async throws {
        let parse = try await parsed()
        let failed = try #require(parse.issue(of: "Outcomes/fails"))
        #expect(failed.message == "2.==(3) failed")
        #expect(failed.file == "spec/outcomes_spec.rb")
        #expect(failed.line == 7)
        #expect(failed.kind == .assertion)
        let raised = try #require(parse.issue(of: "Outcomes/raises"))
        #expect(raised.message == "ArgumentError: boom")
        #expect(raised.line == 11)
        #expect(raised.kind == .error)
        let empty = try #require(parse.issue(of: "Outcomes/asserts nothing"))
        #expect(empty.message == "empty specification: Outcomes asserts nothing")
        #expect(empty.line == 14)
        #expect(empty.kind == .missing)
        #expect(parse.end(of: "Outcomes/fails")?.message == "2.==(3) failed")
        #expect(parse.issues.count == 3)
    }

    @Test func failedSpecsWaitForTheirErrorLogEntries() async throws {
        let types = try await parsed().events.map { event -> String in
            switch event {
            case .testStart(let start): "start \(start.test)"
            case .testEnd(let end): "end \(end.test)"
            default: event.type
            }
        }
        let failedEnd = try #require(types.firstIndex(of: "end Outcomes/fails"))
        #expect(try #require(types.firstIndex(of: "start Slow/sleeps 50 ms")) < failedEnd)
        #expect(types.firstIndex(of: "end Outcomes/passes") ?? .max < failedEnd)
        #expect(types.last == "run.end")
    }

    @Test func withoutBacktracesTheTagsAreTheMessages() async throws {
        let output = try await BaconSpecs.run(["-s", "-Q"])
        let parse = try BaconSpecs.parse(output.stdout)
        #expect(parse.ends.count == 16)
        #expect(parse.issue(of: "Outcomes/fails")?.message == "FAILED")
        #expect(parse.issue(of: "Outcomes/raises")?.message == "ERROR: ArgumentError")
        #expect(parse.issue(of: "Outcomes/asserts nothing")?.message == "MISSING")
        #expect(parse.issue(of: "Outcomes/fails")?.file == nil)
    }

    @Test func arrivalTimesGiveDurations() async throws {
        let text = try #require(await Self.specDox.value).stdout
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let slow = try #require(lines.firstIndex { $0.hasSuffix("- sleeps 50 ms") })
        let times = lines.indices.map { 1_000 + Double($0) * 0.001 + ($0 >= slow ? 0.05 : 0) }
        let parse = try BaconSpecs.parse(text, times: times)
        let sleeper = try #require(parse.end(of: "Slow/sleeps 50 ms"))
        #expect(abs(sleeper.duration - 0.051) < 1e-9)
        #expect(sleeper.at == times[slow])
        let start = try #require(parse.starts.first { $0.test == "Slow/sleeps 50 ms" })
        #expect(abs(start.at - (times[slow] - 0.051)) < 1e-9)
        let summary = try #require(lines.firstIndex { $0.hasPrefix("16 specifications") })
        #expect(parse.runEnds.first?.at == times[summary])
    }

    @Test func withoutArrivalTimesSpecsLastNothing() async throws {
        let parse = try BaconSpecs.parse(try #require(await Self.specDox.value).stdout, startedAt: 500)
        #expect(parse.ends.allSatisfy { $0.duration == 0 && $0.at == 500 })
        #expect(parse.runEnds.first?.at == 500)
    }

    @Test func rubyMotionTagsCarryTheirMessages() async throws {
        let text = """
            Login screen
              - finds the button
              - fails [FAILED - 2.==(3) failed]
              - raises [ERROR: ArgumentError - boom]
              - cannot find a view [ERROR - Unable to find a view with label `Sign up']
              - checks nothing [MISSING - empty specification: Login screen checks nothing]
              - has [brackets] in its name [FAILED - expected [1, 2]]
              - times out [FAILED - timeout exceeded: Login screen - times out]

            7 specifications (4 requirements), 3 failures, 2 errors
            """
        let parse = try BaconSpecs.parse(text)
        #expect(parse.outcomes()["Login screen/finds the button"] == .passed)
        #expect(parse.issue(of: "Login screen/fails")?.message == "2.==(3) failed")
        #expect(parse.issue(of: "Login screen/raises")?.message == "ArgumentError: boom")
        #expect(parse.end(of: "Login screen/raises")?.outcome == .error)
        #expect(
            parse.issue(of: "Login screen/cannot find a view")?.message == "Unable to find a view with label `Sign up'")
        #expect(parse.end(of: "Login screen/checks nothing")?.outcome == .skipped)
        #expect(parse.issue(of: "Login screen/checks nothing")?.kind == .missing)
        #expect(parse.issue(of: "Login screen/has [brackets] in its name")?.message == "expected [1, 2]")
        #expect(parse.issue(of: "Login screen/times out")?.message == "timeout exceeded: Login screen - times out")
        #expect(parse.runEnds.map(\.outcome) == [.failed])
        #expect(parse.parser.notes.isEmpty)
    }

    @Test func aRepeatedRequirementGetsANumber() async throws {
        let text = """
            Cart
              - adds
              - adds [FAILED]

            Bacon::Error: 1.==(2) failed
            \tspec/cart_spec.rb:9:in `block (2 levels)': Cart - adds

            2 specifications (2 requirements), 1 failures, 0 errors
            """
        let parse = try BaconSpecs.parse(text)
        #expect(parse.starts.map(\.test) == ["Cart/adds", "Cart/adds #2"])
        #expect(parse.end(of: "Cart/adds #2")?.outcome == .failed)
        #expect(parse.issue(of: "Cart/adds #2")?.line == 9)
    }
}
