/// `testledger status` in words: a line per test.
public enum StatusRendering {
    public static func table(_ standings: [TestStanding]) -> String {
        standings.map { "\($0.test)  \($0.standing.rawValue): \($0.reason)" }.joined(separator: "\n")
    }

    public static func markdown(_ standings: [TestStanding]) -> String {
        standings.map { "- `\($0.test)` **\($0.standing.rawValue)**: \($0.reason)" }.joined(separator: "\n")
    }
}
