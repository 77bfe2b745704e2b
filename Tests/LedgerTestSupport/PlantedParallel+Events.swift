import LedgerCore

extension PlantedParallel {
    /// The history as Ledger event streams, one file per run, oldest first: each attempt's events
    /// together, the attempts in the order their processes started them.
    /// - Parameter project: the project the runs belong to.
    /// - Returns: each run's events as JSON Lines, oldest run first.
    public func files(project: String = "Cart") -> [String] {
        runs.map { ran in
            let run = ran.first?.evidence.run ?? ""
            let start = ran.map(\.evidence.startedAt).min() ?? 0
            let end = ran.map { $0.evidence.startedAt + ($0.evidence.duration ?? 0) }.max() ?? start
            var lines = [
                GeneratedHistory.line(
                    "run.start", run, start,
                    ["project": .string(project), "source": .string("swift-testing"), "host": .string("mac-1")])
            ]
            for (test, attempt) in ran { lines += PlantedCulprits.lines(test: test, attempt, run: run) }
            lines.append(GeneratedHistory.line("run.end", run, end + 1, [:]))
            return lines.joined(separator: "\n") + "\n"
        }
    }
}
