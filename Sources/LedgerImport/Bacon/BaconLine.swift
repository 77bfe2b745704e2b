/// What one line of Bacon's output is, read alone; ``BaconOutputParser`` decides from what came
/// before whether, say, a `#` line is a Knock backtrace or a context's name.
enum BaconLine: Equatable {
    case blank
    /// SpecDox: `  - description`, with its tag when the spec did not pass.
    case spec(BaconSpecLine)
    /// Knock: `ok - description` or `not ok - description: TAG`.
    case knock(description: Substring, verdict: BaconVerdict?)
    /// Knock: a `# ` line after `not ok`, without the `# `.
    case knockComment(Substring)
    /// An ErrorLog backtrace line, without its tab.
    case frame(Substring)
    /// The totals line; `testUnit` for `N tests, M assertions, …`.
    case summary(BaconSummary, testUnit: Bool)
    /// `Finished in X seconds.` or MacBacon's `Took: X seconds.`
    case timing(Double)
    /// Anything else: a context's name, an error message, progress dots, the specs' own output.
    case text(indentation: Int, Substring)

    init(_ line: Substring) {
        if line.utf8.first == UInt8(ascii: "\t") {
            self = .frame(line.dropFirst())
            return
        }
        let indentation = BaconText.indentation(of: line)
        let content = line.dropFirst(indentation)
        if content.allSatisfy(\.isWhitespace) {
            self = .blank
        } else if indentation >= 2, indentation % 2 == 0, content.hasPrefix("- ") || content == "-" {
            self = .spec(BaconSpecLine(depth: indentation / 2, text: content.dropFirst(2)))
        } else if indentation == 0, let knock = Self.knock(content) {
            self = knock
        } else if indentation == 0, content.hasPrefix("#") {
            self = .knockComment(content.hasPrefix("# ") ? content.dropFirst(2) : content.dropFirst())
        } else if indentation == 0, let (summary, testUnit) = BaconSummary.read(content) {
            self = .summary(summary, testUnit: testUnit)
        } else if indentation == 0, let seconds = BaconSummary.seconds(inTimingLine: content) {
            self = .timing(seconds)
        } else {
            self = .text(indentation: indentation, line.dropFirst(indentation))
        }
    }

    private static func knock(_ content: Substring) -> BaconLine? {
        if content.hasPrefix("ok - ") {
            return .knock(description: content.dropFirst(5), verdict: nil)
        }
        guard content.hasPrefix("not ok - ") else { return nil }
        let rest = content.dropFirst(9)
        guard let (description, verdict) = BaconVerdict.split(rest, opener: ": ") else {
            return .knock(description: rest, verdict: BaconVerdict(kind: .failed, message: "not ok"))
        }
        return .knock(description: description, verdict: verdict)
    }
}
