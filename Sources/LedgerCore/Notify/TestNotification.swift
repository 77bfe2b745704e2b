import Foundation

/// What a team is told of one test, by webhook or Slack: an event, the test, where it stands now
/// and why. The webhook body is its JSON, a public contract whose keys are only ever added.
public struct TestNotification: Codable, Hashable, Sendable {
    /// What happened.
    public enum Event: String, Codable, Sendable, CaseIterable {
        /// `report flaky` judges it flaky now, and did not before the run.
        case becameFlaky = "became-flaky"
        /// It failed on the default branch, where its run before passed.
        case brokenOnDefault = "broken-on-default"
        /// The quarantine took it in.
        case quarantined
        /// The quarantine let it go.
        case released
        /// A fix `verify` proved ran on the default branch.
        case fixLanded = "fix-landed"
        /// It failed on the default branch after its fix landed.
        case regressed
    }

    /// What happened.
    public var event: Event
    /// The project.
    public var project: String
    /// The test's stable id.
    public var test: String
    /// Where it stands after it: a `status` word.
    public var standing: String
    /// Why, in words.
    public var evidence: String
    /// Who owns it, when the project names owners.
    public var owners: [String]
    /// Its page on the team's dashboard, when there is one.
    public var url: String?

    /// Creates a notification from its parts.
    public init(
        event: Event, project: String, test: String, standing: String, evidence: String, owners: [String] = [],
        url: String? = nil
    ) {
        (self.event, self.project, self.test, self.standing) = (event, project, test, standing)
        (self.evidence, self.owners, self.url) = (evidence, owners, url)
    }

    /// What a stored run changed, as notifications, in order: each quarantine change (`add` is
    /// quarantined, `remove` released), each fix that landed or regressed. A change to an entry's
    /// mode tells no one.
    ///
    /// - Parameters:
    ///   - quarantine: the quarantine's changes.
    ///   - fixes: the fixes whose state changed.
    /// - Returns: the notifications, without owners or links.
    public static func of(quarantine: [QuarantineChange], fixes: [RecordedFix]) -> [TestNotification] {
        let changes = quarantine.compactMap { change -> TestNotification? in
            switch change.action {
            case .add:
                TestNotification(
                    event: .quarantined, project: change.project, test: change.test,
                    standing: TestStanding.Standing.quarantined.rawValue,
                    evidence: "\(change.mode?.rawValue ?? "mute") by \(change.by): \(change.reason)")
            case .remove:
                TestNotification(
                    event: .released, project: change.project, test: change.test, standing: "released",
                    evidence: "released by \(change.by): \(change.reason)")
            case .change: nil
            }
        }
        let followed = fixes.flatMap { fix -> [TestNotification] in
            let revision = String(fix.revision.prefix(8))
            let landed = TestNotification(
                event: .fixLanded, project: fix.project, test: fix.test,
                standing: TestStanding.Standing.fixLanded.rawValue,
                evidence: "fix \(revision) ran on the default branch at \(fix.landedRevision?.prefix(8) ?? "?"): "
                    + "\(fix.runsToRelease) clean runs release it")
            switch fix.state {
            case .landed: return [landed]
            case .released where fix.landedAt == fix.changedAt: return [landed]
            case .regressed:
                return [
                    TestNotification(
                        event: .regressed, project: fix.project, test: fix.test,
                        standing: TestStanding.Standing.regressed.rawValue,
                        evidence: "failed on \(fix.regressedRevision?.prefix(8) ?? "the default branch") "
                            + "after fix \(revision) landed")
                ]
            case .pending, .released: return []
            }
        }
        return changes + followed
    }

    /// The tests a run made flaky: flaky now, and not before it.
    ///
    /// - Parameters:
    ///   - flaky: the flaky report's tests after the run.
    ///   - before: the tests flaky before it.
    ///   - project: the project.
    /// - Returns: a `became-flaky` notification per test, once per test.
    public static func becameFlaky(_ flaky: [FlakyReport.FlakyTest], before: Set<String>, project: String)
        -> [TestNotification]
    {
        var told = before
        return flaky.compactMap { test in
            guard told.insert(test.test).inserted else { return nil }
            let on = test.configuration.isEmpty ? "" : " on \(test.configuration)"
            return TestNotification(
                event: .becameFlaky, project: project, test: test.test, standing: TestStanding.Standing.flaky.rawValue,
                evidence:
                    "failed \(test.failures) of \(test.runs) runs\(on) and passed the others; history \(test.strip)")
        }
    }

    /// The tests a default-branch run broke: its failures that are new there or had passed in the
    /// branch's runs since they last failed; a known flaky, quarantined or already failing test is
    /// not told again.
    ///
    /// - Parameter report: `report run` of a run of the default branch.
    /// - Returns: a `broken-on-default` notification per such failure.
    public static func brokenOnDefault(_ report: RunReport) -> [TestNotification] {
        report.failures.filter { $0.verdict == .new || $0.verdict == .failedBefore }.map { failure in
            TestNotification(
                event: .brokenOnDefault, project: report.project, test: failure.test,
                standing: TestStanding.Standing.broken.rawValue,
                evidence: "failed on \(report.branch ?? "the default branch") in run \(report.run): \(failure.evidence)"
                    + (failure.message.map { ": \($0)" } ?? ""))
        }
    }

    /// The webhook's body: the notification's JSON, keys sorted.
    public func webhookBody() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// A Slack incoming webhook's body: a line of text for notifications, then blocks: a section
    /// with the test and what happened, and a context with its owners and link.
    public func slackBody() throws -> Data {
        let headline = "\(event.rawValue): `\(Self.slackEscaped(test))` in \(Self.slackEscaped(project))"
        var context = ["standing: \(standing)"]
        if !owners.isEmpty { context.append("owners: " + owners.map(Self.slackEscaped).joined(separator: ", ")) }
        if let url { context.append("<\(Self.slackEscaped(url))|open in TestLedger>") }
        let body: [String: Any] = [
            "text": "\(event.rawValue): \(test) in \(project)",
            "blocks": [
                [
                    "type": "section",
                    "text": ["type": "mrkdwn", "text": Self.clipped(headline + "\n" + Self.slackEscaped(evidence))],
                ],
                [
                    "type": "context",
                    "elements": [["type": "mrkdwn", "text": Self.clipped(context.joined(separator: " · "))]],
                ],
            ],
        ]
        return try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .withoutEscapingSlashes])
    }

    /// Slack refuses a text object over 3,000 characters: a longer one is cut, and says so.
    static func clipped(_ text: String) -> String {
        text.count <= 3_000 ? text : String(text.prefix(2_999)) + "…"
    }

    /// Text as Slack's mrkdwn reads it literally: `&`, `<` and `>` escaped, as Slack asks.
    static func slackEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    /// The notification with its test's owners and, when a dashboard serves the ledger, its page.
    public func addressed(owners: TestOwners, dashboard: URL?) -> TestNotification {
        var addressed = self
        addressed.owners = owners(test)
        addressed.url = dashboard.map { Self.page(of: test, project: project, on: $0) }
        return addressed
    }

    /// The test's page on the dashboard of the server at `server`.
    public static func page(of test: String, project: String, on server: URL) -> String {
        let base =
            server.absoluteString.hasSuffix("/") ? String(server.absoluteString.dropLast()) : server.absoluteString
        let segment = { (text: String) in
            text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
                ?? text
        }
        return base + "/projects/" + segment(project) + "/tests/" + segment(test)
    }

    /// A notification to try a target with: `notify test`.
    public static func sample(project: String) -> TestNotification {
        TestNotification(
            event: .quarantined, project: project, test: "TestLedgerSample.SampleTests/testNotification",
            standing: TestStanding.Standing.quarantined.rawValue,
            evidence: "a sample from testledger notify test: nothing happened to a test")
    }
}
