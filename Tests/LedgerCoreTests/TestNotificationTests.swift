import Foundation
import Testing

@testable import LedgerCore

/// What a stored run's changes tell a team, and how a target is read, on values.
@Suite struct TestNotificationTests {
    static func change(_ action: QuarantineChange.Action, _ test: String) -> QuarantineChange {
        QuarantineChange(
            id: 1, project: "Shop", test: test, configuration: "*", action: action,
            mode: action == .remove ? nil : .mute,
            reason: "flaky", by: "testledger", at: 10)
    }

    static func fix(_ state: RecordedFix.State, landedAt: Double = 20, changedAt: Double = 20) -> RecordedFix {
        var fix = RecordedFix(
            test: "A/total", project: "Shop", revision: "f1xed0c0ffee", branch: nil, at: 1,
            evidence: .init(
                verificationRun: "v", runs: 11, failureRateBefore: 0.25, remainingRateBelow: 0.24, confidence: 0.95),
            runsToRelease: 20)
        (fix.state, fix.landedRevision, fix.landedAt, fix.changedAt) = (state, "merge0000", landedAt, changedAt)
        if state == .regressed { fix.regressedRevision = "bad0000000" }
        return fix
    }

    @Test func eachChangeIsOneEventAndAModeChangeNone() {
        let told = TestNotification.of(
            quarantine: [Self.change(.add, "A/a"), Self.change(.change, "A/b"), Self.change(.remove, "A/c")],
            fixes: [
                Self.fix(.landed), Self.fix(.released, changedAt: 30), Self.fix(.released), Self.fix(.regressed),
                Self.fix(.pending),
            ])
        #expect(told.map(\.event) == [.quarantined, .released, .fixLanded, .fixLanded, .regressed], "\(told)")
        #expect(told.map(\.test) == ["A/a", "A/c", "A/total", "A/total", "A/total"])
        #expect(told[0].standing == "quarantined" && told[0].evidence == "mute by testledger: flaky")
        #expect(told[2].standing == "fix-landed" && told[2].evidence.contains("fix f1xed0c0 ran on the default branch"))
        #expect(told[4].standing == "regressed" && told[4].evidence == "failed on bad00000 after fix f1xed0c0 landed")
    }

    @Test func aTestFlakyNowAndNotBeforeBecameFlakyOnce() {
        func flaky(_ test: String, _ configuration: String) -> FlakyReport.FlakyTest {
            FlakyReport.FlakyTest(
                test: test, configuration: configuration, score: 0.5, runs: 10, failures: 3, retriedPasses: 0,
                flipRate: 0.5, revisionsWithBoth: 1, lastFlake: nil, failureProbability: 0.3, uncertainty: 0.1,
                quietRuns: 0, earlierRate: 0.3, quietChance: 1, quietRunsNeeded: nil, strip: "PFPFPPPFPP")
        }
        let told = TestNotification.becameFlaky(
            [flaky("A/old", ""), flaky("A/new", "iPhone 16"), flaky("A/new", "iPad"), flaky("A/other", "")],
            before: ["A/old"], project: "Shop")
        #expect(told.map(\.test) == ["A/new", "A/other"] && told.allSatisfy { $0.event == .becameFlaky })
        #expect(told[0].evidence == "failed 3 of 10 runs on iPhone 16 and passed the others; history PFPFPPPFPP")
        #expect(told[0].standing == "flaky")
    }

    @Test func slackReadsHostileNamesLiterallyAndLongEvidenceIsCut() throws {
        var notification = TestNotification(
            event: .regressed, project: "Shop", test: "A/<!channel> & <https://evil|x>", standing: "regressed",
            evidence: String(repeating: "é", count: 4_000), owners: ["@acme/<ui>"], url: "https://l.example/t")
        let blocks = try #require(
            try JSONSerialization.jsonObject(with: try notification.slackBody()) as? [String: Any])
        let sections = try #require(blocks["blocks"] as? [[String: Any]])
        let section = try #require((sections[0]["text"] as? [String: Any])?["text"] as? String)
        #expect(
            section.hasPrefix("regressed: `A/&lt;!channel&gt; &amp; &lt;https://evil|x&gt;` in Shop\n"), "\(section)")
        #expect(section.count == 3_000 && section.hasSuffix("é…"))
        let context = (sections[1]["elements"] as? [[String: Any]])?.first?["text"] as? String
        #expect(context == "standing: regressed · owners: @acme/&lt;ui&gt; · <https://l.example/t|open in TestLedger>")
        notification.url = nil
        let body = try #require(try JSONSerialization.jsonObject(with: notification.webhookBody()) as? [String: Any])
        #expect(
            body["test"] as? String == notification.test && body["url"] == nil && body["owners"] as? [String] != nil)
        #expect(
            TestNotification.page(of: "A/b c", project: "My App", on: URL(string: "https://l.example/")!)
                == "https://l.example/projects/My%20App/tests/A%2Fb%20c")
    }

    @Test func aTargetIsOneAddressItsSecretAVariableAndItsEventsKnown() throws {
        func target(_ json: String) throws -> NotifyTarget {
            try JSONDecoder().decode(NotifyTarget.self, from: Data(json.utf8))
        }
        let team = try target(
            #"{"name": "team", "webhook": "https://hooks.example.com/t", "secret": "env:SECRET", "events": ["regressed"]}"#
        )
        #expect(team.kind == .webhook && team.secretVariable == "SECRET" && team.events == [.regressed])
        #expect(try target(#"{"name": "c", "slack": "https://hooks.slack.com/x"}"#).events.count == 6)
        let refusals = [
            (#"{"name": "t"}"#, "give one of webhook: and slack:"),
            (#"{"name": "t", "webhook": "https://a.example", "slack": "https://b.example"}"#, "give one of"),
            (#"{"name": "t", "webhook": "ftp://a.example"}"#, "an http or https address"),
            (#"{"name": "t", "webhook": "https://a.example", "secret": "hunter2"}"#, "env:NAME, never the secret"),
            (#"{"name": "t", "webhook": "https://a.example", "events": ["flaky"]}"#, "no event flaky; the events are"),
        ]
        for (json, said) in refusals {
            #expect {
                try target(json)
            } throws: { error in
                "\(error)".contains(said)
            }
        }
    }
}
