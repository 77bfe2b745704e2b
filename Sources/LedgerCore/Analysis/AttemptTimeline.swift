/// A failing attempt and the other tests' attempts whose time overlapped it: what ran beside it,
/// for the run page to draw.
public struct AttemptTimeline: Hashable, Sendable {
    /// The failing attempt.
    public var attempt: RecordedAttempt
    /// The run's other attempts that overlapped it, the earliest first.
    public var beside: [RecordedAttempt]

    /// How far two attempts must overlap to have run side by side: importers that know only
    /// durations put one test's start exactly at the end of the one before, give or take rounding.
    public static let slack = 0.0005

    /// The span drawn: from the earliest start to the latest end among them, an unended attempt
    /// reaching the failing one's end.
    public var span: (from: Double, to: Double) {
        let end = Self.end(of: attempt, orElse: attempt.startedAt)
        let all = [attempt] + beside
        return (all.map(\.startedAt).min() ?? attempt.startedAt, all.map { Self.end(of: $0, orElse: end) }.max() ?? end)
    }

    /// The failing attempts of a run (failed, erred, crashed or never ended), at most `limit`, in the
    /// order of their starts, each with the attempts that overlapped it.
    /// - Parameters:
    ///   - attempts: every attempt of the run.
    ///   - limit: the most timelines.
    /// - Returns: a timeline for each failing attempt that had another test beside it.
    public static func failing(in attempts: [RecordedAttempt], limit: Int) -> [AttemptTimeline] {
        let sorted = inOrderOfStart(attempts)
        var timelines: [AttemptTimeline] = []
        for attempt in sorted where attempt.outcome?.isFailure ?? true {
            let beside = overlapping(attempt, among: sorted)
            if beside.isEmpty { continue }
            timelines.append(AttemptTimeline(attempt: attempt, beside: beside))
            if timelines.count == limit { break }
        }
        return timelines
    }

    /// The timeline of one attempt of a run: it and the attempts that overlapped it.
    /// - Parameters:
    ///   - test: the attempt's test.
    ///   - number: its number in the run.
    ///   - attempts: every attempt of the run.
    /// - Returns: the timeline; `nil` when the run has no such attempt or nothing overlapped it.
    public static func of(_ test: String, attempt number: Int, in attempts: [RecordedAttempt]) -> AttemptTimeline? {
        guard let attempt = attempts.first(where: { $0.test == test && $0.attempt == number }) else { return nil }
        let beside = overlapping(attempt, among: inOrderOfStart(attempts))
        return beside.isEmpty ? nil : AttemptTimeline(attempt: attempt, beside: beside)
    }

    /// The tests whose steps the timeline draws: its own and those beside it.
    public var tests: Set<String> { Set([attempt.test] + beside.map(\.test)) }

    /// The timeline with each attempt's steps, as a store reads them.
    /// - Parameter steps: steps by test, then attempt number.
    /// - Returns: the same timeline, its attempts carrying their steps.
    public func withSteps(_ steps: [String: [Int: [AttemptEvidence.Step]]]) -> AttemptTimeline {
        var timeline = self
        for index in [-1] + Array(beside.indices) {
            var lane = index < 0 ? attempt : beside[index]
            lane.steps = steps[lane.test]?[lane.attempt] ?? []
            if index < 0 { timeline.attempt = lane } else { timeline.beside[index] = lane }
        }
        return timeline
    }

    /// The attempts in the order they started.
    private static func inOrderOfStart(_ attempts: [RecordedAttempt]) -> [RecordedAttempt] {
        attempts.sorted { ($0.startedAt, $0.test, $0.attempt) < ($1.startedAt, $1.test, $1.attempt) }
    }

    /// The other tests' attempts among `attempts` whose time overlapped `attempt`, in their order.
    private static func overlapping(_ attempt: RecordedAttempt, among attempts: [RecordedAttempt]) -> [RecordedAttempt]
    {
        let end = end(of: attempt, orElse: .infinity)
        return attempts.filter { other in
            other.test != attempt.test && other.startedAt < end - slack
                && Self.end(of: other, orElse: .infinity) > attempt.startedAt + slack
        }
    }

    private static func end(of attempt: RecordedAttempt, orElse unended: Double) -> Double {
        attempt.duration.map { attempt.startedAt + $0 } ?? unended
    }
}
