/// A failing attempt's timeline in words, for the terminal: its steps and, under it, each test
/// that ran beside it with the steps it ran meanwhile, in seconds from the attempt's start.
public enum TimelineRendering {
    /// The timeline as lines of text.
    /// - Parameter timeline: the attempt and those beside it, with their steps.
    /// - Returns: a heading, then a line per attempt and an indented line per step.
    public static func text(_ timeline: AttemptTimeline) -> String {
        let origin = timeline.attempt.startedAt
        let end = timeline.attempt.duration.map { origin + $0 } ?? .infinity
        var lines = [
            "Beside attempt \(timeline.attempt.attempt) (times from its start; \(timeline.beside.count) test(s)):"
        ]
        for (index, lane) in ([timeline.attempt] + timeline.beside).enumerated() {
            let outcome = lane.outcome?.rawValue ?? "never ended"
            lines.append(
                "  \(index == 0 ? "this test" : lane.test)  \(span(lane.startedAt, lane.duration.map { lane.startedAt + $0 }, from: origin))  \(outcome)"
            )
            // Beside it, only the steps that ran while it did.
            for step in lane.steps where index == 0 || (step.startedAt < end && (step.endedAt ?? .infinity) > origin) {
                let marker = step.outcome == .failed ? "  failed" : ""
                lines.append(
                    "    \(String(repeating: "  ", count: max(0, step.path.count - 1)))\(step.path.last ?? "?")  "
                        + span(step.startedAt, step.endedAt, from: origin) + marker)
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func span(_ start: Double, _ end: Double?, from origin: Double) -> String {
        "\(offset(start - origin)) to \(end.map { offset($0 - origin) } ?? "never ended")"
    }

    /// Seconds from the attempt's start, signed: `+120ms`, `-35ms`.
    private static func offset(_ seconds: Double) -> String {
        (seconds < 0 ? "-" : "+") + Figures.seconds(abs(seconds))
    }
}
