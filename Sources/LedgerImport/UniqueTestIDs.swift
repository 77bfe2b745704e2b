/// The test ids given out in one run: a second test with the same id gets ` (2)` after it, a
/// third ` (3)`, so that no two tests of a report share one (TAP, RSpec and CTRF do not forbid
/// two tests of one name).
struct UniqueTestIDs {
    private var taken = Set<String>()
    /// The last number given after each id, so that the thousandth repeat need not try 999 first.
    private var lastNumber: [String: Int] = [:]

    /// `id`, or `id (2)`, `id (3)`… when it is taken.
    mutating func claim(_ id: String) -> String {
        var candidate = id
        if taken.contains(id) {
            var number = lastNumber[id] ?? 1
            repeat {
                number += 1
                candidate = "\(id) (\(number))"
            } while taken.contains(candidate)
            lastNumber[id] = number
        }
        taken.insert(candidate)
        return candidate
    }
}
