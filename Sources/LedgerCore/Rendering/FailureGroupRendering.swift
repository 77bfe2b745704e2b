/// `report failures` as a table: one row per group, the largest first.
public enum FailureGroupRendering {
    /// At most this many tests are named per group.
    public static let namedTests = 3

    public static func table(_ groups: [FailureGroup]) -> TextTable {
        TextTable(
            headers: ["failures", "runs", "tests", "cause", "first seen", "last seen", "for example"],
            rows: groups.map { group in
                let shown = group.tests.prefix(namedTests).joined(separator: ", ")
                let more = group.tests.count > namedTests ? " and \(group.tests.count - namedTests) more" : ""
                return [
                    "\(group.failures)", "\(group.runs)", "\(group.tests.count)",
                    group.signature + (group.location.map { " (at \($0))" } ?? ""), group.firstSeen, group.lastSeen,
                    shown + more,
                ]
            }, numeric: [0, 1, 2]
        ).withOwners(groups.map(\.owners))
    }
}
