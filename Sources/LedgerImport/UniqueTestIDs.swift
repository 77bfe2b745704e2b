/// The test ids given out in one run: a second test with the same id gets ` (2)` after it, a
/// third ` (3)`, so that no two tests of a report share one.
struct UniqueTestIDs {
    private var taken = Set<String>()

    /// `id`, or `id (2)`, `id (3)`… when it is taken.
    mutating func claim(_ id: String) -> String {
        var candidate = id
        var number = 1
        while taken.contains(candidate) {
            number += 1
            candidate = "\(id) (\(number))"
        }
        taken.insert(candidate)
        return candidate
    }
}
