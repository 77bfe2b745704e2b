/// The known test ids nearest to one that is not known: what a mistyped id was meant to be.
public enum ClosestTestIDs {
    /// Up to `limit` ids from `known`, nearest first: ids that contain `id` (ignoring case), then
    /// the fewest single-character edits.
    public static func suggest(for id: String, among known: [String], limit: Int = 3) -> [String] {
        let wanted = Array(id.lowercased().unicodeScalars)
        let ranked = known.map { candidate -> (String, Int) in
            let lowered = candidate.lowercased()
            let distance = lowered.contains(id.lowercased()) ? 0 : editDistance(wanted, Array(lowered.unicodeScalars))
            return (candidate, distance)
        }
        return ranked.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(limit).map(\.0)
    }

    /// Levenshtein distance, in two rows.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        var current = previous
        for (i, x) in a.enumerated() {
            current[0] = i + 1
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
