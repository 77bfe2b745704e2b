/// A SpecDox spec line, `  - description`, with its tag when the spec did not pass, read alone.
struct BaconSpecLine: Equatable {
    /// 1 inside a top-level context.
    var depth: Int
    /// Everything after `- `: the description, then its tag if it has one.
    var text: Substring
    /// The description without its tag.
    var description: Substring
    /// What the tag says; `nil` when the line has none: the spec passed.
    var verdict: BaconVerdict?

    init(depth: Int, text: Substring) {
        self.depth = depth
        self.text = text
        let tagged = BaconVerdict.split(text, opener: " [", closer: "]")
        description = tagged?.0 ?? text
        verdict = tagged?.1
    }

    /// The line read as an attempt that the TestLedger output module runs again; `nil` when its
    /// tag does not end with `, retrying K/N`. Only the line after it can tell whether it is one:
    /// a requirement may be named so.
    var retried: BaconRetryTag? { BaconRetryTag(text) }
}

/// The tag the TestLedger output module (`Formatters/bacon/testledger.rb`, with
/// `TESTLEDGER_TEST_RETRIES=N`) prints for an attempt that failed or raised and runs again: the
/// tag SpecDox prints, then `, retrying K/N`, K being the attempt (1 for the spec's first run):
///
/// ```
/// Cart
///   - adds [FAILED, retrying 1/2]
///   - adds [ERROR: ArgumentError, retrying 2/2]
///   - adds [FAILED]
///   - removes [FAILED - 2.==(3) failed, retrying 1/2]
///   - removes
/// ```
///
/// RubyMotion's tags keep their message before it, as above. The next line of the same
/// requirement in the same context is the next attempt. An empty spec (`MISSING`) is never run
/// again.
struct BaconRetryTag: Equatable {
    /// The description, without the tag.
    var description: Substring
    /// How the attempt ended: `failed` or `error`.
    var verdict: BaconVerdict
    /// K: which attempt this was, from 1.
    var attempt: Int
    /// N: how many times a failing spec runs again at most.
    var retries: Int

    static let marker = ", retrying "

    /// Reads `description [TAG, retrying K/N]`, 1 ≤ K ≤ N; `nil` for anything else.
    init?(_ text: Substring) {
        guard let body = Self.dropping("]", from: text),
            let (beforeRetries, retries) = Self.trailingNumber(body),
            let counted = Self.dropping("/", from: beforeRetries),
            let (beforeAttempt, attempt) = Self.trailingNumber(counted),
            attempt >= 1, attempt <= retries,
            let tagged = Self.dropping(Self.marker, from: beforeAttempt),
            let (description, verdict) = BaconVerdict.split(tagged, opener: " ["),
            verdict.kind != .missing
        else { return nil }
        self.description = description
        self.verdict = verdict
        self.attempt = attempt
        self.retries = retries
    }

    /// `text` without `suffix`, compared byte for byte; `nil` when it does not end so.
    private static func dropping(_ suffix: String, from text: Substring) -> Substring? {
        let count = suffix.utf8.count
        guard text.utf8.count >= count, text.utf8.suffix(count).elementsEqual(suffix.utf8) else { return nil }
        return text[..<text.utf8.index(text.endIndex, offsetBy: -count)]
    }

    /// The whole number `text` ends with (at most 9 digits), and what comes before it.
    private static func trailingNumber(_ text: Substring) -> (Substring, Int)? {
        let digits = text.utf8.reversed().prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
        guard (1...9).contains(digits) else { return nil }
        let start = text.utf8.index(text.endIndex, offsetBy: -digits)
        guard let number = Int(text[start...]) else { return nil }
        return (text[..<start], number)
    }
}
