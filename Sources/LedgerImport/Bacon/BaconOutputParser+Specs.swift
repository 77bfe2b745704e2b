import LedgerCore

extension BaconOutputParser {
    /// A SpecDox `  - requirement` line: a spec, or the next attempt of the spec before it.
    mutating func spec(_ line: BaconSpecLine, time: Time) -> [LedgerEvent] {
        recognised = true
        style = .specDox
        adoptContexts()
        if contexts.count > line.depth { contexts.removeLast(contexts.count - line.depth) }
        entry = nil
        let suite = contexts.joined(separator: " ")
        let innermost = contexts.last ?? ""
        var events: [LedgerEvent] = []
        if let retry {
            self.retry = nil
            if let (verdict, again) = retry.nextAttempt(line, suite: suite) {
                return attempt(of: retry, verdict: verdict, again: again, time: time)
            }
            events += settle(retry)
        }
        specLines += 1
        if let tag = line.retried, tag.attempt == 1 {
            retry = BaconRetry(suite: suite, innermost: innermost, line: line, tag: tag, time: time)
            return events
        }
        let (more, failed) = begin(
            suite: suite, name: line.description, innermost: innermost, verdict: line.verdict, time: time)
        if let failed { held.append(failed) }
        return events + more
    }

    /// A Knock `ok - requirement` or `not ok - requirement: ERROR` line.
    mutating func knock(description: Substring, verdict: BaconVerdict?, time: Time) -> [LedgerEvent] {
        recognised = true
        style = .knock
        pendingLines.removeAll()
        let (events, failed) = begin(suite: "", name: description, innermost: "", verdict: verdict, time: time)
        if let failed {
            knockSpec = failed
            entry = ErrorLogEntry(message: [])
            knockFailed = knockFailed || failed.verdict.countsAgainstRun
        }
        return events
    }

    /// A `# ` line after a Knock `not ok`: its ErrorLog entry, message lines then frames.
    mutating func readKnockComment(_ comment: Substring) {
        guard var current = entry, var spec = knockSpec else { return }
        if comment.utf8.first == UInt8(ascii: "\t") {
            guard !current.sawFrame else { return }
            current.sawFrame = true
            spec.attach(message: current.message, frame: comment.dropFirst())
            knockSpec = spec
        } else if !current.sawFrame {
            current.message.append(String(comment))
        }
        entry = current
    }

    /// A tab-indented line: a backtrace frame of an ErrorLog entry, whose message lines are the
    /// lines kept since the last blank one. The first frame names its spec.
    mutating func readFrame(_ frame: Substring) -> [LedgerEvent] {
        let settled = settleRetry()
        if !pendingLines.isEmpty {
            entry = ErrorLogEntry(message: pendingLines.map(\.text))
            pendingLines.removeAll()
        }
        guard var current = entry, !current.sawFrame else { return settled }
        current.sawFrame = true
        entry = current
        // The Test::Unit style may print its ErrorLog before `Finished in`, its first sure sign.
        if style == nil || style == .testUnit {
            return settled + namedFailure(message: current.message, frame: frame)
        }
        guard let index = held.firstIndex(where: { frame.hasSuffix($0.frameSuffix) }) else { return settled }
        var spec = held.remove(at: index)
        spec.attach(message: current.message, frame: frame)
        return settled + spec.events
    }

    /// A spec that did not pass in the Test::Unit style, which prints no names but for these: its
    /// ErrorLog entry's first frame names it (`…: <context> - <description>`), and the message
    /// says how it ended (`Bacon::Error: empty specification…`, `Bacon::Error: …`, `Class: …`).
    mutating func namedFailure(message lines: [String], frame: Substring) -> [LedgerEvent] {
        guard let (context, description) = BaconText.spec(inFirstFrame: frame) else { return [] }
        let message = lines.joined(separator: "\n")
        let kind: BaconVerdict.Kind =
            message.hasPrefix("Bacon::Error: empty specification")
            ? .missing : message.hasPrefix("Bacon::Error: ") ? .failed : .error
        let at = startedAt + (timing ?? 0)
        let suite = String(context)
        let test = uniqueID(suite + "/" + description)
        var spec = BaconHeldSpec(
            test: test, frameSuffix: "", verdict: BaconVerdict(kind: kind, message: kind.rawValue), endedAt: at,
            duration: 0)
        spec.attach(message: lines, frame: frame)
        namedSpecs += 1
        let start = LedgerEvent.TestStart(at: at, test: test, suite: suite, name: String(description))
        return [.testStart(start)] + spec.events
    }

    /// The summary line: everything waiting goes out, then `run.end`.
    mutating func end(_ totals: BaconSummary, testUnit: Bool, time: Time) -> [LedgerEvent] {
        recognised = true
        summary = totals
        style = style ?? (testUnit ? .testUnit : .specDox)
        var events = releaseAll()
        if style == .testUnit, totals.specifications > namedSpecs {
            note(
                "Bacon's \(testUnit ? "Test::Unit-style" : "dotted") output names only the specs that did not pass: "
                    + "\(totals.specifications) tests counted, \(namedSpecs) recorded "
                    + "(use -s or the TestLedger output to record them all)")
        } else if style == .specDox, specLines != totals.specifications {
            note("the summary counts \(totals.specifications) specifications, the output shows \(specLines)")
        }
        let end = lastArrival ?? (startedAt + (timing ?? 0))
        // Output that names only some specs leaves Bacon's own totals as the run's.
        let counts =
            style == .testUnit
            ? LedgerEvent.RunnerCounts(
                tests: totals.specifications, failures: totals.failures, errors: totals.errors) : nil
        events.append(
            .runEnd(
                LedgerEvent.RunEnd(
                    at: max(end, time.end), outcome: totals.failed ? .failed : .passed, counts: counts)))
        ended = true
        return events
    }

    /// The events of every spec still waiting for its ErrorLog entry.
    mutating func releaseAll() -> [LedgerEvent] {
        var events = settleRetry()
        events += held.flatMap(\.events)
        held.removeAll()
        if let knockSpec { events += knockSpec.events }
        knockSpec = nil
        return events
    }

    /// A spec's `test.start`, and its `test.end` when it passed; else the spec, to hold.
    mutating func begin(
        suite: String, name: Substring, innermost: String, verdict: BaconVerdict?, time: Time
    ) -> ([LedgerEvent], BaconHeldSpec?) {
        let test = uniqueID(suite.isEmpty ? String(name) : suite + "/" + name)
        return begin(test, attempt: 1, suite: suite, name: name, innermost: innermost, verdict: verdict, time: time)
    }

    /// An attempt's `test.start`, and its `test.end` when it passed; else the attempt, to hold.
    func begin(
        _ test: String, attempt: Int, suite: String, name: Substring, innermost: String, verdict: BaconVerdict?,
        time: Time
    ) -> ([LedgerEvent], BaconHeldSpec?) {
        let start = LedgerEvent.TestStart(
            at: time.end - time.duration, test: test, attempt: attempt, suite: suite.isEmpty ? nil : suite,
            name: String(name))
        guard let verdict else {
            let end = LedgerEvent.TestEnd(
                at: time.end, test: test, attempt: attempt, outcome: .passed, duration: time.duration)
            return ([.testStart(start), .testEnd(end)], nil)
        }
        let spec = BaconHeldSpec(
            test: test, attempt: attempt, frameSuffix: ": \(innermost) - \(name)", verdict: verdict,
            endedAt: time.end, duration: time.duration)
        return ([.testStart(start)], spec)
    }

    /// `id`, or `id #2`, `id #3`… when the run already has it.
    mutating func uniqueID(_ id: String) -> String {
        let count = (ids[id] ?? 0) + 1
        ids[id] = count
        return count > 1 ? "\(id) #\(count)" : id
    }

    /// Reads the lines kept before a spec as the names of the contexts it is in: a name at
    /// indentation 2n is the context at depth n + 1, inside an open context at depth n; a
    /// top-level one comes first or after a blank line. Other lines are the specs' own output.
    mutating func adoptContexts() {
        for (indentation, text, afterBlank) in pendingLines where indentation % 2 == 0 {
            let depth = indentation / 2
            guard depth == 0 ? afterBlank : depth <= contexts.count else { continue }
            contexts.removeLast(contexts.count - depth)
            contexts.append(String(text.dropFirst(indentation)))
        }
        pendingLines.removeAll()
    }
}
