/// `report failures --clusters` as a table: one row per cluster, the one failing in the most runs
/// first, with its tests and what separates the runs it fails in.
public enum FailureClusterRendering {
    public static func table(_ clusters: [FailureCluster]) -> TextTable {
        TextTable(
            headers: ["tests", "failing runs", "together", "suspect", "tests that fail together"],
            rows: clusters.map { cluster in
                [
                    "\(cluster.tests.count)", "\(cluster.failingRuns) of \(cluster.runs)", "\(cluster.together)",
                    cluster.suspect.map { "\($0.kind.rawValue) \($0.name): \($0.evidence)" } ?? "–",
                    cluster.tests.joined(separator: ", "),
                ]
            }, numeric: [0, 2])
    }
}
