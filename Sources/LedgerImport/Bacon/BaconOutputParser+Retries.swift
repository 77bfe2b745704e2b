import LedgerCore

/// A spec the TestLedger output module runs again: its line said `[…, retrying K/N]`, and the
/// next line of the same requirement in the same context is its attempt K + 1.
struct BaconRetry: Sendable {
    /// Where the spec is: the context path, the innermost context, and its depth.
    var suite: String
    var innermost: String
    var depth: Int
    /// The requirement, without any tag.
    var name: Substring
    /// N, which every attempt's tag repeats.
    var retries: Int
    /// The attempt the spec's next line is.
    var next: Int
    /// The test's id, once a second line made it a retry.
    var test: String?
    /// The spec's first line and when it came, until the next line says whether it was a retry:
    /// a requirement may itself be named `… [FAILED, retrying 1/2]`.
    var first: (line: BaconSpecLine, verdict: BaconVerdict, time: BaconOutputParser.Time)?

    init(suite: String, innermost: String, line: BaconSpecLine, tag: BaconRetryTag, time: BaconOutputParser.Time) {
        self.suite = suite
        self.innermost = innermost
        depth = line.depth
        name = tag.description
        retries = tag.retries
        next = tag.attempt + 1
        first = (line, tag.verdict, time)
    }

    /// How `line`, in the context path `suite`, ends the spec's next attempt: its verdict (`nil`
    /// when it passed), and whether it runs again; `nil` when the line is not that attempt.
    func nextAttempt(_ line: BaconSpecLine, suite: String) -> (verdict: BaconVerdict?, again: Bool)? {
        guard line.depth == depth, suite == self.suite else { return nil }
        if line.text == name { return (nil, false) }
        if let tag = line.retried {
            guard tag.description == name, tag.attempt == next, tag.retries == retries else { return nil }
            return (tag.verdict, true)
        }
        guard let verdict = line.verdict, line.description == name else { return nil }
        return (verdict, false)
    }
}

extension BaconOutputParser {
    /// The next attempt of the spec `retry` waits for, ending with `verdict`. The attempts before
    /// it go out first (the first one's line is read as a retry only now); an attempt that runs
    /// again has no ErrorLog entry (the module takes it out of Bacon's), so it goes out whole,
    /// its tag being its message. The last attempt is the spec's: held like any other spec.
    mutating func attempt(of retry: BaconRetry, verdict: BaconVerdict?, again: Bool, time: Time) -> [LedgerEvent] {
        var retry = retry
        var events: [LedgerEvent] = []
        let test: String
        if let known = retry.test {
            test = known
        } else {
            test = uniqueID(retry.suite.isEmpty ? String(retry.name) : retry.suite + "/" + retry.name)
            if let first = retry.first {
                events += discarded(test, attempt: 1, of: retry, verdict: first.verdict, time: first.time)
            }
        }
        guard again, let verdict else {
            let (more, failed) = begin(
                test, attempt: retry.next, suite: retry.suite, name: retry.name, innermost: retry.innermost,
                verdict: verdict, time: time)
            if let failed { held.append(failed) }
            return events + more
        }
        events += discarded(test, attempt: retry.next, of: retry, verdict: verdict, time: time)
        retry.test = test
        retry.first = nil
        retry.next += 1
        self.retry = retry
        return events
    }

    /// The events of an attempt that ran again: `test.start`, `issue`, `test.end`.
    func discarded(_ test: String, attempt: Int, of retry: BaconRetry, verdict: BaconVerdict, time: Time)
        -> [LedgerEvent]
    {
        let (events, failed) = begin(
            test, attempt: attempt, suite: retry.suite, name: retry.name, innermost: retry.innermost,
            verdict: verdict, time: time)
        return events + (failed?.events ?? [])
    }

    /// The spec `retry` waited for a retry of, when none came: a first line that only looked like
    /// a retry is read as any other line (a spec named with its tag, or RubyMotion's message); a
    /// retry's attempts already went out.
    mutating func settle(_ retry: BaconRetry) -> [LedgerEvent] {
        guard retry.test == nil, let first = retry.first else { return [] }
        let (events, failed) = begin(
            suite: retry.suite, name: first.line.description, innermost: retry.innermost,
            verdict: first.line.verdict, time: first.time)
        if let failed { held.append(failed) }
        return events
    }

    /// ``settle(_:)`` for the spec waiting, if any: a line other than a spec's came.
    mutating func settleRetry() -> [LedgerEvent] {
        guard let waiting = retry else { return [] }
        retry = nil
        return settle(waiting)
    }
}
