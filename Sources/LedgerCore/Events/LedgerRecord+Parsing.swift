extension LedgerRecord {
    /// Every field any line of the stream may have: a line's members are gathered once, whatever
    /// its type, and each event reads the ones it needs.
    enum Field: Int, JSONField {
        case v, type, run
        case at, project, source, revision, branch, ci, host, attempt, labels, configuration
        case test, suite, name, file, line, layer, tags
        case activity, parent, outcome, verifier, fields
        case expect, held, attempts, waited, timeout, interval
        case message, kind, duration

        var name: String {
            switch self {
            case .v: "v"
            case .type: "type"
            case .run: "run"
            case .at: "at"
            case .project: "project"
            case .source: "source"
            case .revision: "revision"
            case .branch: "branch"
            case .ci: "ci"
            case .host: "host"
            case .attempt: "attempt"
            case .labels: "labels"
            case .configuration: "configuration"
            case .test: "test"
            case .suite: "suite"
            case .name: "name"
            case .file: "file"
            case .line: "line"
            case .layer: "layer"
            case .tags: "tags"
            case .activity: "activity"
            case .parent: "parent"
            case .outcome: "outcome"
            case .verifier: "verifier"
            case .fields: "fields"
            case .expect: "expect"
            case .held: "held"
            case .attempts: "attempts"
            case .waited: "waited"
            case .timeout: "timeout"
            case .interval: "interval"
            case .message: "message"
            case .kind: "kind"
            case .duration: "duration"
            }
        }
    }

    /// The run and test of the line read before, which the next line most likely repeats.
    struct RecentStrings {
        var run: String?
        var test: String?
    }

    /// Reads the record whose members `fields` gathered, checking what the Codable conformance
    /// checks, in the same order, and failing with the same words.
    ///
    /// - Throws: ``JSONFieldProblem``, or ``UnknownEventType`` for a `type` this build does not know.
    init(reading fields: JSONFieldReader<Field>, recent: inout RecentStrings) throws {
        let version = try fields.requiredInt(.v)
        guard version == Self.version else {
            throw JSONFieldProblem("field `v`: unsupported stream version \(version); this build reads v1")
        }
        run = try fields.requiredString(.run, reusing: &recent.run)
        let type = try fields.requiredString(.type)
        switch type {
        case "run.start": event = .runStart(try .init(reading: fields))
        case "test.start": event = .testStart(try .init(reading: fields, recent: &recent))
        case "activity.start": event = .activityStart(try .init(reading: fields, recent: &recent))
        case "activity.end": event = .activityEnd(try .init(reading: fields))
        case "capture": event = .capture(try .init(reading: fields, recent: &recent))
        case "predicate": event = .predicate(try .init(reading: fields, recent: &recent))
        case "issue": event = .issue(try .init(reading: fields, recent: &recent))
        case "test.end": event = .testEnd(try .init(reading: fields, recent: &recent))
        case "run.end": event = .runEnd(try .init(reading: fields))
        default: throw UnknownEventType(type: type)
        }
    }
}

extension LedgerEvent.CI {
    enum Field: Int, JSONField {
        case provider, build, job, url

        var name: String {
            switch self {
            case .provider: "provider"
            case .build: "build"
            case .job: "job"
            case .url: "url"
            }
        }
    }

    init(reading fields: JSONFieldReader<Field>) throws(JSONFieldProblem) {
        self.init(
            provider: try fields.string(.provider), build: try fields.string(.build), job: try fields.string(.job),
            url: try fields.string(.url))
    }
}

// Each initializer reads its fields in the order the type declares them, as the synthesized
// Codable initializer does, so that a line with several problems reports the same one.

extension LedgerEvent.RunStart {
    init(reading fields: JSONFieldReader<LedgerRecord.Field>) throws(JSONFieldProblem) {
        self.init(
            at: try fields.requiredDouble(.at), project: try fields.requiredString(.project),
            source: try fields.requiredString(.source), revision: try fields.string(.revision),
            branch: try fields.string(.branch),
            ci: try fields.object(.ci, as: LedgerEvent.CI.Field.self).map { reader throws(JSONFieldProblem) in
                try LedgerEvent.CI(reading: reader)
            },
            host: try fields.string(.host), attempt: try fields.int(.attempt),
            labels: try fields.stringDictionary(.labels), configuration: try fields.string(.configuration))
    }
}

extension LedgerEvent.TestStart {
    init(reading fields: JSONFieldReader<LedgerRecord.Field>, recent: inout LedgerRecord.RecentStrings)
        throws(JSONFieldProblem)
    {
        self.init(
            at: try fields.requiredDouble(.at), test: try fields.requiredString(.test, reusing: &recent.test),
            attempt: try fields.requiredInt(.attempt), suite: try fields.string(.suite),
            name: try fields.string(.name), file: try fields.string(.file), line: try fields.int(.line),
            layer: try fields.optional(.layer, as: Layer.self), tags: try fields.strings(.tags))
    }
}

extension LedgerEvent.ActivityStart {
    init(reading fields: JSONFieldReader<LedgerRecord.Field>, recent: inout LedgerRecord.RecentStrings)
        throws(JSONFieldProblem)
    {
        self.init(
            at: try fields.requiredDouble(.at), test: try fields.requiredString(.test, reusing: &recent.test),
            attempt: try fields.requiredInt(.attempt), activity: try fields.requiredString(.activity),
            parent: try fields.string(.parent), name: try fields.string(.name))
    }
}

extension LedgerEvent.ActivityEnd {
    init(reading fields: JSONFieldReader<LedgerRecord.Field>) throws(JSONFieldProblem) {
        self.init(
            at: try fields.requiredDouble(.at), activity: try fields.requiredString(.activity),
            outcome: try fields.optional(.outcome, as: Outcome.self))
    }
}

extension LedgerEvent.Capture {
    init(reading fields: JSONFieldReader<LedgerRecord.Field>, recent: inout LedgerRecord.RecentStrings)
        throws(JSONFieldProblem)
    {
        self.init(
            at: try fields.requiredDouble(.at), test: try fields.requiredString(.test, reusing: &recent.test),
            attempt: try fields.requiredInt(.attempt), verifier: try fields.requiredString(.verifier),
            activity: try fields.string(.activity), fields: try fields.json(.fields))
    }
}

extension LedgerEvent.Predicate {
    init(reading fields: JSONFieldReader<LedgerRecord.Field>, recent: inout LedgerRecord.RecentStrings)
        throws(JSONFieldProblem)
    {
        self.init(
            at: try fields.requiredDouble(.at), test: try fields.requiredString(.test, reusing: &recent.test),
            attempt: try fields.requiredInt(.attempt), name: try fields.requiredString(.name),
            expect: try fields.required(.expect, as: PredicateExpectation.self), held: try fields.requiredBool(.held),
            attempts: try fields.requiredInt(.attempts), waited: try fields.requiredDouble(.waited),
            timeout: try fields.requiredDouble(.timeout), interval: try fields.double(.interval),
            activity: try fields.string(.activity), file: try fields.string(.file), line: try fields.int(.line))
    }
}

extension LedgerEvent.Issue {
    init(reading fields: JSONFieldReader<LedgerRecord.Field>, recent: inout LedgerRecord.RecentStrings)
        throws(JSONFieldProblem)
    {
        self.init(
            at: try fields.requiredDouble(.at), test: try fields.requiredString(.test, reusing: &recent.test),
            attempt: try fields.requiredInt(.attempt), message: try fields.requiredString(.message),
            file: try fields.string(.file), line: try fields.int(.line),
            kind: try fields.optional(.kind, as: LedgerEvent.IssueKind.self))
    }
}

extension LedgerEvent.TestEnd {
    init(reading fields: JSONFieldReader<LedgerRecord.Field>, recent: inout LedgerRecord.RecentStrings)
        throws(JSONFieldProblem)
    {
        self.init(
            at: try fields.requiredDouble(.at), test: try fields.requiredString(.test, reusing: &recent.test),
            attempt: try fields.requiredInt(.attempt), outcome: try fields.required(.outcome, as: Outcome.self),
            duration: try fields.requiredDouble(.duration), message: try fields.string(.message))
    }
}

extension LedgerEvent.RunEnd {
    init(reading fields: JSONFieldReader<LedgerRecord.Field>) throws(JSONFieldProblem) {
        self.init(at: try fields.requiredDouble(.at), outcome: try fields.string(.outcome))
    }
}
