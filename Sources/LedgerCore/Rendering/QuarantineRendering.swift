/// `quarantine list` and `quarantine log` as terminal tables or Markdown.
public enum QuarantineRendering {
    /// The tests in quarantine.
    public static func list(_ tests: [QuarantinedTest]) -> TextTable {
        TextTable(
            headers: ["test", "config", "mode", "since", "until", "by", "reason"],
            rows: tests.map {
                [
                    $0.test, configuration($0.configuration), $0.mode.rawValue, iso8601($0.since),
                    $0.until.map(iso8601) ?? "–", actor($0.by, automatic: $0.automatic), $0.reason,
                ]
            })
    }

    /// The audit trail, oldest first.
    public static func log(_ changes: [QuarantineChange]) -> TextTable {
        TextTable(
            headers: ["at", "action", "test", "config", "mode", "until", "by", "reason"],
            rows: changes.map {
                [
                    iso8601($0.at), $0.action.rawValue, $0.test, configuration($0.configuration),
                    $0.mode?.rawValue ?? "–", $0.until.map(iso8601) ?? "–",
                    actor($0.by, automatic: $0.automatic), $0.reason,
                ]
            })
    }

    /// Who made an entry or a change: `ana`, or `testledger (automatic)`.
    public static func actor(_ by: String, automatic: Bool) -> String {
        automatic ? "\(by) (automatic)" : by
    }

    private static func configuration(_ name: String) -> String {
        name == QuarantinedTest.everyConfiguration ? "every" : name.isEmpty ? "none" : name
    }
}
