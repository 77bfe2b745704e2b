import LedgerCore

extension PlantedCulprits {
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
            let end = ran.last.map { $0.evidence.startedAt + ($0.evidence.duration ?? 0) } ?? info.start
            lines.append(GeneratedHistory.line("run.end", run, end + 1, [:]))
            return lines.joined(separator: "\n") + "\n"
        }
    }

    private static func lines(test: String, _ attempt: AttemptEvidence, run: String) -> [String] {
        let base: [String: JSONValue] = ["test": .string(test), "attempt": .number(Double(attempt.attempt))]
        func with(_ fields: [String: JSONValue]) -> [String: JSONValue] { base.merging(fields) { _, new in new } }
        var events: [(at: Double, line: String)] = [
            (attempt.startedAt, GeneratedHistory.line("test.start", run, attempt.startedAt, base))
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
            var fields = with(["message": .string(issue.message), "kind": .string("assertion")])
            if let file = issue.file { fields["file"] = .string(file) }
            if let line = issue.line { fields["line"] = .number(Double(line)) }
            events.append((issue.at, GeneratedHistory.line("issue", run, issue.at, fields)))
        }
        let end = attempt.startedAt + (attempt.duration ?? 0)
        events.append(
            (
                end,
                GeneratedHistory.line(
                    "test.end", run, end,
                    with([
                        "outcome": .string(attempt.outcome?.rawValue ?? "crashed"),
                        "duration": .number(attempt.duration ?? 0),
                    ]))
            ))
        // The stream's order is time's, each event after those it needs (a start before its end).
        return events.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(
            \.element.line)
    }
}
