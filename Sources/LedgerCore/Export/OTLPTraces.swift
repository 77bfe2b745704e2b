import Foundation

/// Runs as OpenTelemetry traces, in OTLP's JSON encoding (`POST /v1/traces`): a run is a trace
/// and its root span; each test attempt a span under it; the attempt's activities child spans of
/// it; its predicates, captures and issues span events; a failure the span's status.
/// Attributes follow OpenTelemetry's test, CI/CD and VCS conventions (`test.suite.name`,
/// `test.case.name`, `test.case.result.status`, `cicd.pipeline.*`, `vcs.*`), TestLedger's own are
/// under `testledger.*`.
public enum OTLPTraces {
    /// What is known of a run beside its attempts.
    public struct Run: Sendable {
        public var id: String
        public var project: String
        public var source: String
        public var branch: String?
        public var revision: String?
        public var configuration: String?
        public var build: String?
        public var url: String?
        /// Seconds since 1970.
        public var startedAt: Double
        public var endedAt: Double?
        /// `passed`, `failed`, `interrupted`…; `nil` while it runs.
        public var outcome: String?

        public init(
            id: String, project: String, source: String, branch: String? = nil, revision: String? = nil,
            configuration: String? = nil, build: String? = nil, url: String? = nil, startedAt: Double,
            endedAt: Double? = nil, outcome: String? = nil
        ) {
            (self.id, self.project, self.source, self.branch, self.revision) = (id, project, source, branch, revision)
            (self.configuration, self.build, self.url) = (configuration, build, url)
            (self.startedAt, self.endedAt, self.outcome) = (startedAt, endedAt, outcome)
        }
    }

    /// A test's attempt, which names its detail.
    public struct AttemptKey: Hashable, Sendable {
        public var test: String
        public var attempt: Int

        public init(test: String, attempt: Int) {
            (self.test, self.attempt) = (test, attempt)
        }
    }

    /// One run's spans, with the resource that names the project and its CI.
    ///
    /// - Parameters:
    ///   - run: the run.
    ///   - attempts: every attempt of the run, by test and then attempt.
    ///   - details: each attempt as `show --attempt` gives it, for its activities, predicates,
    ///     captures and issues.
    /// - Returns: the run's span, a span for each attempt and spans for their activities, under a
    ///   resource naming the project and its CI.
    public static func resourceSpans(
        _ run: Run, attempts: [RecordedAttempt], details: [AttemptKey: TestDetail]
    ) -> OTLP.ResourceSpans {
        let trace = traceID(run.id)
        var spans = [runSpan(run, attempts: attempts, trace: trace)]
        for attempt in attempts {
            let detail = details[AttemptKey(test: attempt.test, attempt: attempt.attempt)]
            let span = attemptSpan(attempt, detail: detail, run: run, trace: trace)
            spans.append(span)
            for activity in detail?.activities ?? [] {
                spans += activitySpans(activity, parent: span.spanId, trace: trace, run: run.id, test: attempt.test)
            }
        }
        return OTLP.ResourceSpans(
            resource: OTLP.Resource(
                attributes: [
                    .string("service.name", "testledger"), .string("testledger.project", run.project),
                    run.configuration.flatMap { $0.isEmpty ? nil : .string("testledger.configuration", $0) },
                    run.branch.map { .string("vcs.ref.head.name", $0) },
                    run.revision.map { .string("vcs.ref.head.revision", $0) },
                    run.build.map { .string("cicd.pipeline.run.id", $0) },
                    run.url.map { .string("cicd.pipeline.run.url.full", $0) },
                ].compactMap { $0 }),
            scopeSpans: [
                OTLP.ScopeSpans(scope: OTLP.Scope(name: "testledger", version: TestLedgerVersion.current), spans: spans)
            ])
    }

    /// The run's span, the root of its trace: from its start to its end (or its last attempt's).
    static func runSpan(_ run: Run, attempts: [RecordedAttempt], trace: String) -> OTLP.Span {
        let end = run.endedAt ?? (attempts.map { $0.startedAt + ($0.duration ?? 0) }.max() ?? run.startedAt)
        return OTLP.Span(
            traceId: trace, spanId: spanID(run.id), parentSpanId: nil, name: "test run \(run.project)",
            startTimeUnixNano: nanos(run.startedAt), endTimeUnixNano: nanos(max(end, run.startedAt)),
            attributes: [
                .string("test.suite.name", run.project),
                .string("test.suite.run.status", run.outcome.map(suiteStatus) ?? "in_progress"),
                .string("testledger.run.id", run.id), .string("testledger.source", run.source),
                run.outcome.map { .string("testledger.outcome", $0) },
            ].compactMap { $0 },
            events: [],
            status: run.outcome.map { $0 == "passed" ? .ok : .error("the run \($0)") } ?? .unset)
    }

    /// An attempt's span, under the run's, with its issues, predicates and captures as events.
    static func attemptSpan(_ attempt: RecordedAttempt, detail: TestDetail?, run: Run, trace: String) -> OTLP.Span {
        let failed = attempt.outcome?.isFailure ?? true
        return OTLP.Span(
            traceId: trace, spanId: spanID("\(run.id)/\(attempt.test)#\(attempt.attempt)"),
            parentSpanId: spanID(run.id),
            name: attempt.test, startTimeUnixNano: nanos(attempt.startedAt),
            endTimeUnixNano: nanos(attempt.startedAt + (attempt.duration ?? 0)),
            attributes: [
                .string("test.case.name", attempt.test), attempt.suite.map { .string("test.suite.name", $0) },
                .string("test.case.result.status", failed ? "fail" : "pass"),
                .string("testledger.outcome", attempt.outcome?.rawValue ?? "crashed"),
                .int("testledger.attempt", attempt.attempt),
                attempt.file.map { .string("code.file.path", $0) },
                attempt.line.map { .int("code.line.number", $0) },
            ].compactMap { $0 },
            events: detail.map(events) ?? [],
            status: failed ? .error(attempt.message ?? attempt.outcome?.rawValue ?? "never ended") : .ok)
    }

    /// An attempt's issues (as `exception`), predicates and captures, as span events.
    static func events(_ detail: TestDetail) -> [OTLP.Event] {
        let issues = detail.issues.map { issue in
            OTLP.Event(
                timeUnixNano: nanos(issue.at), name: "exception",
                attributes: [
                    .string("exception.message", issue.message),
                    issue.file.map { .string("code.file.path", $0) },
                    issue.line.map { .int("code.line.number", $0) },
                ].compactMap { $0 })
        }
        let predicates = detail.predicates.map { predicate in
            OTLP.Event(
                timeUnixNano: nanos(predicate.at), name: "testledger.predicate",
                attributes: [
                    .string("testledger.predicate.name", predicate.name),
                    .string("testledger.predicate.expect", predicate.expect.rawValue),
                    .bool("testledger.predicate.held", predicate.held),
                    .int("testledger.predicate.attempts", predicate.attempts),
                    .double("testledger.predicate.waited", predicate.waited),
                    .double("testledger.predicate.timeout", predicate.timeout),
                ].compactMap { $0 })
        }
        let captures = detail.captures.map { capture in
            OTLP.Event(
                timeUnixNano: nanos(capture.at), name: "testledger.capture",
                attributes: [
                    .string("testledger.capture.verifier", capture.verifier),
                    capture.activity.map { .string("testledger.activity.id", $0) },
                    capture.fields.map { .string("testledger.capture.fields", $0.jsonText) },
                ].compactMap { $0 })
        }
        return issues + predicates + captures
    }

    /// An activity's span and its children's, laid from its start (or its parent's) for its duration.
    static func activitySpans(
        _ activity: TestDetail.ActivityDetail, parent: String, trace: String, run: String, test: String
    ) -> [OTLP.Span] {
        let span = spanID("\(run)/\(test)/\(activity.id)")
        let start = activity.at ?? 0
        let failed = activity.outcome?.isFailure == true
        var spans = [
            OTLP.Span(
                traceId: trace, spanId: span, parentSpanId: parent, name: activity.name,
                startTimeUnixNano: nanos(start), endTimeUnixNano: nanos(start + (activity.duration ?? 0)),
                attributes: [
                    .string("testledger.activity.id", activity.id),
                    activity.outcome.map { .string("testledger.outcome", $0.rawValue) },
                ].compactMap { $0 },
                events: [], status: failed ? .error("failed") : .unset)
        ]
        for child in activity.children {
            spans += activitySpans(child, parent: span, trace: trace, run: run, test: test)
        }
        return spans
    }

    /// `test.suite.run.status` for a run's outcome.
    static func suiteStatus(_ outcome: String) -> String {
        switch outcome {
        case "passed": "success"
        case "interrupted": "aborted"
        default: "failure"
        }
    }

    /// The trace id of a run: its UUID's 32 hex digits, else a digest of its id.
    public static func traceID(_ run: String) -> String {
        let hex = run.lowercased().replacingOccurrences(of: "-", with: "")
        if hex.count == 32, hex.allSatisfy(\.isHexDigit) { return hex }
        return digest(run)
    }

    /// A span id (16 hex digits) derived from what the span stands for, so that exporting a run
    /// twice gives the same spans.
    public static func spanID(_ name: String) -> String { String(digest(name).prefix(16)) }

    static func digest(_ text: String) -> String {
        var digest = ContentDigest()
        digest.update(text.utf8)
        return digest.uuidString.replacingOccurrences(of: "-", with: "")
    }

    static func nanos(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds > 0 else { return "0" }
        return String(UInt64((seconds * 1_000_000_000).rounded()))
    }
}
