import LedgerCore

extension PlantedCulprits {
    /// Each test's attempts as a store reads them back from ``files(project:)``, by the event
    /// stream's rule: an attempt that never ended is `crashed`, "the run ended before this test
    /// finished", and lasted until the last event recorded in it. The runs are serial: no test
    /// ran beside another; each attempt knows the other tests that failed in its run.
    public var storedAttempts: [String: [AttemptEvidence]] {
        var failedIn: [String: Set<String>] = [:]
        for (index, ran) in runs.enumerated() {
            failedIn[runIDs[index]] = Set(ran.filter { $0.evidence.isFailing }.map(\.test))
        }
        var stored: [String: [AttemptEvidence]] = [:]
        for (test, attempts) in attempts {
            stored[test] = attempts.map { attempt in
                var attempt = attempt
                attempt.beside = []
                attempt.failedBeside = failedIn[attempt.run, default: []].subtracting([test])
                guard attempt.outcome == nil else { return attempt }
                let events =
                    attempt.steps.map(\.startedAt) + attempt.checks.map(\.at) + attempt.captures.map(\.at)
                    + attempt.issues.map(\.at)
                attempt.outcome = .crashed
                attempt.duration = (events.max() ?? attempt.startedAt) - attempt.startedAt
                attempt.message = "the run ended before this test finished"
                return attempt
            }
        }
        return stored
    }

    /// The history as Ledger event streams, one file per run, oldest first: what a store ingests.
    /// - Parameter project: the project the runs belong to.
    /// - Returns: each run's events as JSON Lines, oldest run first.
    public func files(project: String = "Feed") -> [String] {
        runs.enumerated().map { index, ran in
            let run = runIDs[index]
            let info = runInfo[index]
            var lines = [
                GeneratedHistory.line(
                    "run.start", run, info.start,
                    [
                        "project": .string(project), "source": .string("xctest"), "host": .string(info.host),
                        "configuration": .string(info.configuration),
                    ])
            ]
            for (test, attempt) in ran { lines += Self.lines(test: test, attempt, run: run) }
            if !cutShort.contains(index) {
                let end = ran.last.map { $0.evidence.startedAt + ($0.evidence.duration ?? 0) } ?? info.start
                lines.append(GeneratedHistory.line("run.end", run, end + 1, [:]))
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// One attempt's events, in time's order: its process and load on its start, its CPU time on
    /// its end, when it has them.
    static func lines(test: String, _ attempt: AttemptEvidence, run: String) -> [String] {
        let base: [String: JSONValue] = ["test": .string(test), "attempt": .number(Double(attempt.attempt))]
        func with(_ fields: [String: JSONValue]) -> [String: JSONValue] { base.merging(fields) { _, new in new } }
        var starting = base
        if let process = attempt.process { starting["process"] = .number(Double(process)) }
        if let load = attempt.load { starting["load"] = .number(load) }
        var events: [(at: Double, line: String)] = [
            (attempt.startedAt, GeneratedHistory.line("test.start", run, attempt.startedAt, starting))
        ]
        var ids: [[String]: String] = [:]
        for (index, step) in attempt.steps.enumerated() {
            let id = "\(run)/\(test)/\(attempt.attempt)/\(index)"
            ids[step.path] = id
            var start = with(["activity": .string(id), "name": .string(step.path.last ?? "")])
            if let parent = ids[Array(step.path.dropLast())], step.path.count > 1 { start["parent"] = .string(parent) }
            events.append((step.startedAt, GeneratedHistory.line("activity.start", run, step.startedAt, start)))
            if let ended = step.endedAt {
                var end: [String: JSONValue] = ["activity": .string(id)]
                if let outcome = step.outcome { end["outcome"] = .string(outcome.rawValue) }
                events.append((ended, GeneratedHistory.line("activity.end", run, ended, end)))
            }
        }
        for check in attempt.checks {
            var fields = with([
                "name": .string(check.name), "expect": .string(check.expect.rawValue), "held": .bool(check.held),
                "attempts": .number(3), "waited": .number(check.waited), "timeout": .number(check.timeout),
            ])
            if let activity = ids[check.stepPath] { fields["activity"] = .string(activity) }
            events.append((check.at, GeneratedHistory.line("predicate", run, check.at, fields)))
        }
        for capture in attempt.captures {
            var fields = with(["verifier": .string(capture.verifier)])
            fields["fields"] = capture.fields
            if let activity = ids[capture.stepPath] { fields["activity"] = .string(activity) }
            events.append((capture.at, GeneratedHistory.line("capture", run, capture.at, fields)))
        }
        for issue in attempt.issues {
            let kind = attempt.outcome == .error ? "error" : "assertion"
            var fields = with(["message": .string(issue.message), "kind": .string(kind)])
            if let file = issue.file { fields["file"] = .string(file) }
            if let line = issue.line { fields["line"] = .number(Double(line)) }
            events.append((issue.at, GeneratedHistory.line("issue", run, issue.at, fields)))
        }
        // One that never ended has no end: the store finds it so when the run ends.
        if let outcome = attempt.outcome, let duration = attempt.duration {
            var fields = with(["outcome": .string(outcome.rawValue), "duration": .number(duration)])
            if let message = attempt.message { fields["message"] = .string(message) }
            if let cpu = attempt.cpu { fields["cpu"] = .number(cpu) }
            let end = attempt.startedAt + duration
            events.append((end, GeneratedHistory.line("test.end", run, end, fields)))
        }
        // The stream's order is time's, each event after those it needs (a start before its end).
        return events.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(
            \.element.line)
    }
}
