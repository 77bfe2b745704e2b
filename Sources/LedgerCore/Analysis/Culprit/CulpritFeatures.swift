/// What the culprit report compares, gathered from the attempts: for each feature, its values in
/// the failing and in the passing attempts where it could be seen — not in an attempt that could
/// not show it (a step that would have run after the failure).
struct CulpritFeatures {
    /// What a feature measures.
    enum Measure: Int, Hashable {
        /// The attempt has it (a step ran, a value was captured, a host).
        case present
        /// A step that runs in other attempts did not run before the failure.
        case missing
        /// A check did not hold before its timeout.
        case timedOut
        /// Seconds: a step's, or the whole attempt's until it failed.
        case seconds
        /// The share of its timeout a check waited.
        case nearTimeout
        /// A figure of its own: the load average.
        case level
        /// How many times one time is another: wall time over CPU time.
        case ratio
        /// Another test was inside one of its steps while the failing step ran.
        case duringStep
        /// Another test was past the start of one of its steps, and not yet ended, while the
        /// failing step ran: what that step set up was still in place.
        case pastStep

        /// Whether it is a measure (tested at a threshold) rather than a presence.
        var isMeasure: Bool {
            switch self {
            case .seconds, .nearTimeout, .level, .ratio: true
            case .present, .missing, .timedOut, .duringStep, .pastStep: false
            }
        }
    }

    /// One feature: a kind of suspect, its name and what is measured.
    struct Key: Hashable, Comparable {
        var kind: CulpritReport.Kind
        var name: String
        var measure: Measure
        /// For a check, what it waited for.
        var expect: PredicateExpectation? = nil
        /// For another test's step, its path.
        var step: String? = nil

        /// By kind, name, measure, expectation and step, each compared only when the ones before are
        /// equal: a report sorts hundreds of keys for each test.
        static func < (lhs: Key, rhs: Key) -> Bool {
            if lhs.kind != rhs.kind { return lhs.kind.rawValue < rhs.kind.rawValue }
            if lhs.name != rhs.name { return lhs.name < rhs.name }
            if lhs.measure != rhs.measure { return lhs.measure.rawValue < rhs.measure.rawValue }
            let (left, right) = (lhs.expect == .doesntHold, rhs.expect == .doesntHold)
            if left != right { return right }
            return (lhs.step ?? "") < (rhs.step ?? "")
        }
    }

    /// How many failing and passing attempts could show a presence, and how many had it.
    struct Counts: Hashable {
        var failingWith = 0
        var failingSeen = 0
        var passingWith = 0
        var passingSeen = 0

        mutating func add(_ with: Bool, failing: Bool) {
            if failing {
                failingSeen += 1
                if with { failingWith += 1 }
            } else {
                passingSeen += 1
                if with { passingWith += 1 }
            }
        }
    }

    /// Where a failing attempt failed.
    struct Place: Hashable {
        var file: String?
        var line: Int?
        var activity: String?
    }

    /// Each presence feature's counts, but the co-failures'.
    private(set) var presences: [Key: Counts] = [:]
    /// Each test that failed in a run of the attempts, with its counts: a feature of kind
    /// `coFailure` each, kept apart because a large suite has many.
    private(set) var coFailures: [(test: String, counts: Counts)] = []
    /// Each measure's values in the failing and the passing attempts, in the attempts' order.
    private(set) var measures: [Key: (failing: [Double], passing: [Double])] = [:]
    /// Where each failing attempt failed, in the attempts' order, with the attempt's index.
    private(set) var places: [(index: Int, place: Place)] = []
    /// The step path of each step, check and capture feature: what contains what.
    private(set) var stepPaths: [Key: [String]] = [:]
    /// Each check's longest timeout and the waits of its evaluations that held in passing attempts.
    private(set) var checkTimes: [Key: (timeout: Double, passingWaits: [Double])] = [:]
    /// Steps, checks and captured fields compared.
    private(set) var counts = (steps: 0, checks: 0, fields: 0)
    /// What each test beside the attempts did most often in the failing attempts it was beside.
    private(set) var besideEvents: [String: AttemptEvidence.Neighbour.Event] = [:]
    /// The step the failing attempts fail in most often, by path: the moment the other tests'
    /// steps are compared at.
    private(set) var failingStep: String?
    /// Retries that ran with no other test beside them, and how many of them passed.
    private(set) var retriesAlone = (passed: 0, of: 0)
    /// Whether every failing attempt ran beside other tests.
    private(set) var failingHadCompany = false
    /// Whether the attempts ran in more than one configuration, which is then compared.
    let comparesConfigurations: Bool
    /// Whether some attempts are retries, so that first tries are compared with them.
    let comparesRetries: Bool

    /// The separator of a step path's names.
    static let pathSeparator = " › "

    init(_ attempts: [AttemptEvidence]) {
        comparesConfigurations = Set(attempts.map(\.configuration)).count > 1
        comparesRetries = attempts.contains { $0.attempt > 1 }
        let positions = Self.stepPositions(attempts)
        var checkNames = Set<Key>()
        var fieldValues: [String: Set<String>] = [:]
        var fieldsSeen: [(failing: Bool, fields: [String: Set<String>])] = []
        var durations: (failing: [Double], passing: [Double]) = ([], [])
        var beside: [(failing: Bool, tests: [String: Set<AttemptEvidence.Neighbour.Event>])] = []
        var cutoffs: [Double] = []
        for (index, attempt) in attempts.enumerated() {
            let failing = attempt.isFailing
            let steps = Self.keyed(attempt.steps)
            let cutoff = Self.cutoff(attempt, steps.map(\.step))
            cutoffs.append(cutoff)
            addSteps(steps, of: attempt, index: index, cutoff: cutoff, positions: positions)
            checkNames.formUnion(addChecks(of: attempt, cutoff: cutoff))
            let fields = capturedFields(of: attempt, cutoff: cutoff)
            fields.forEach { fieldValues[$0.key, default: []].formUnion($0.value) }
            fieldsSeen.append((failing, fields))
            if comparesRetries {
                presences[Key(kind: .attempt, name: "first try", measure: .present), default: Counts()].add(
                    attempt.attempt == 1, failing: failing)
            }
            // A failing attempt's time is its time until it failed: what follows is the failure's.
            if let duration = cutoff.isFinite && failing ? cutoff - attempt.startedAt : attempt.duration {
                if failing { durations.failing.append(duration) } else { durations.passing.append(duration) }
            }
            addLoad(of: attempt)
            if let neighbours = attempt.beside, !attempt.isRetryAlone {
                beside.append((failing, Self.beside(neighbours, of: attempt, cutoff: cutoff)))
            }
        }
        compareBeside(beside)
        compareCompany(attempts, cutoffs: cutoffs)
        if !durations.failing.isEmpty || !durations.passing.isEmpty {
            measures[Key(kind: .duration, name: "duration", measure: .seconds)] = durations
        }
        compareFields(fieldsSeen, values: fieldValues)
        compareSurroundings(attempts)
        compareCoFailures(attempts)
        counts = (positions.count, checkNames.count, fieldValues.count)
    }

    /// The machine's load while the attempt ran, and its wall time against the CPU time its
    /// process used (a test starved of CPU takes many times its CPU time).
    private mutating func addLoad(of attempt: AttemptEvidence) {
        if let load = attempt.load {
            measure(Key(kind: .load, name: "load average", measure: .level), load, failing: attempt.isFailing)
        }
        if let cpu = attempt.cpu, cpu > 0, let duration = attempt.duration {
            measure(
                Key(kind: .load, name: "wall time / CPU time", measure: .ratio), duration / cpu,
                failing: attempt.isFailing)
        }
    }

    /// The tests that did something while the attempt ran, until it failed, with what they did.
    private static func beside(
        _ neighbours: [AttemptEvidence.Neighbour], of attempt: AttemptEvidence, cutoff: Double
    ) -> [String: Set<AttemptEvidence.Neighbour.Event>] {
        let end = min(cutoff, attempt.duration.map { attempt.startedAt + $0 } ?? .infinity)
        var tests: [String: Set<AttemptEvidence.Neighbour.Event>] = [:]
        for neighbour in neighbours where neighbour.at > attempt.startedAt && neighbour.at <= end {
            tests[neighbour.test, default: []].insert(neighbour.event)
        }
        return tests
    }

    /// Each test seen beside any attempt, present or not beside each attempt whose neighbours are
    /// known; and what it did beside the most failing ones (its end before its start before a step).
    private mutating func compareBeside(
        _ beside: [(failing: Bool, tests: [String: Set<AttemptEvidence.Neighbour.Event>])]
    ) {
        var events: [String: [AttemptEvidence.Neighbour.Event: Int]] = [:]
        for (failing, tests) in beside where failing {
            for (test, seen) in tests {
                for event in seen { events[test, default: [:]][event, default: 0] += 1 }
            }
        }
        besideEvents = events.compactMapValues { counts in
            counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        }
        let names = Set(beside.flatMap(\.tests.keys))
        for name in names {
            var counts = Counts()
            for (failing, tests) in beside { counts.add(tests[name] != nil, failing: failing) }
            presences[Key(kind: .overlappingTest, name: name, measure: .present)] = counts
        }
    }

    /// Which other tests, and which of their steps, ran while the failing step ran (see
    /// ``StepCompany``); and whether the test fails only beside other tests.
    private mutating func compareCompany(_ attempts: [AttemptEvidence], cutoffs: [Double]) {
        let failingAttempts = attempts.filter(\.isFailing)
        failingHadCompany = !failingAttempts.isEmpty && failingAttempts.allSatisfy { $0.company?.isEmpty == false }
        for attempt in attempts where attempt.isRetryAlone {
            retriesAlone.of += 1
            if attempt.isPassing { retriesAlone.passed += 1 }
        }
        var placeCounts: [String: Int] = [:]
        for (_, place) in places { if let step = place.activity { placeCounts[step, default: 0] += 1 } }
        guard let step = placeCounts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) })?.key else { return }
        failingStep = step
        let company = StepCompany(attempts, step: step, cutoffs: cutoffs)
        presences.merge(company.presences) { _, new in new }
    }

    /// Adds a value of `key` measured in a failing or a passing attempt.
    private mutating func measure(_ key: Key, _ value: Double, failing: Bool) {
        if failing {
            measures[key, default: ([], [])].failing.append(value)
        } else {
            measures[key, default: ([], [])].passing.append(value)
        }
    }

    /// The attempt's steps: which ran (and how long) before it failed, which it passed by without
    /// running, and, for a failing attempt, where it failed.
    private mutating func addSteps(
        _ steps: [(key: String, step: AttemptEvidence.Step)], of attempt: AttemptEvidence, index: Int, cutoff: Double,
        positions: [String: Double]
    ) {
        let failing = attempt.isFailing
        let holding = failing ? steps.filter { Self.holdsFailure($0.step, cutoff: cutoff) } : []
        let whereKeys = Set(holding.map(\.key))
        var horizon = failing ? -Double.infinity : .infinity
        for (key, step) in steps where step.startedAt <= cutoff {
            horizon = max(horizon, positions[key] ?? -.infinity)
        }
        var seen = Set<String>()
        for (key, step) in steps {
            seen.insert(key)
            stepPaths[Key(kind: .activity, name: key, measure: .seconds)] = step.path
            guard !whereKeys.contains(key), let ended = step.endedAt, ended <= cutoff else { continue }
            presences[Key(kind: .activity, name: key, measure: .present), default: Counts()].add(true, failing: failing)
            presences[Key(kind: .activity, name: key, measure: .missing), default: Counts()].add(
                false, failing: failing)
            measure(Key(kind: .activity, name: key, measure: .seconds), ended - step.startedAt, failing: failing)
        }
        // A step that runs before the failure elsewhere, and that this attempt passed by.
        for (key, position) in positions where !seen.contains(key) && position < horizon {
            presences[Key(kind: .activity, name: key, measure: .present), default: Counts()].add(
                false, failing: failing)
            presences[Key(kind: .activity, name: key, measure: .missing), default: Counts()].add(true, failing: failing)
        }
        if failing {
            places.append((index, Self.place(attempt, holding.map(\.step), cutoff: cutoff)))
        }
    }

    /// The attempt's checks before it failed: whether each timed out, how near its timeout it came,
    /// and the waits that held in passing attempts. Returns the checks it had.
    private mutating func addChecks(of attempt: AttemptEvidence, cutoff: Double) -> Set<Key> {
        var checks: [Key: (timedOut: Bool, margin: Double?)] = [:]
        for check in attempt.checks where check.at <= cutoff {
            let key = Key(kind: .predicate, name: check.name, measure: .timedOut, expect: check.expect)
            var found = checks[key] ?? (false, nil)
            found.timedOut = found.timedOut || !check.held
            if check.timeout > 0 { found.margin = max(found.margin ?? 0, check.waited / check.timeout) }
            checks[key] = found
            stepPaths[key] = check.stepPath
            var times = checkTimes[key] ?? (0, [])
            times.timeout = max(times.timeout, check.timeout)
            if attempt.isPassing, check.held { times.passingWaits.append(check.waited) }
            checkTimes[key] = times
        }
        for (key, found) in checks {
            presences[key, default: Counts()].add(found.timedOut, failing: attempt.isFailing)
            var near = key
            near.measure = .nearTimeout
            stepPaths[near] = stepPaths[key]
            if let margin = found.margin { measure(near, margin, failing: attempt.isFailing) }
        }
        return Set(checks.keys)
    }

    /// The values the attempt's captures held before it failed, by field.
    private mutating func capturedFields(of attempt: AttemptEvidence, cutoff: Double) -> [String: Set<String>] {
        var fields: [String: Set<String>] = [:]
        for capture in attempt.captures where capture.at <= cutoff {
            for (field, value) in Self.flattened(capture.fields, prefix: capture.verifier) {
                fields[field, default: []].insert(value)
                stepPaths[Key(kind: .capture, name: field + " = " + value, measure: .present)] = capture.stepPath
            }
        }
        return fields
    }

    /// A captured field is compared among the attempts that show it: each value it took anywhere,
    /// present or not in each attempt that captured the field.
    private mutating func compareFields(
        _ fieldsSeen: [(failing: Bool, fields: [String: Set<String>])], values: [String: Set<String>]
    ) {
        for (failing, fields) in fieldsSeen {
            for (field, seen) in fields {
                for value in values[field] ?? [] {
                    presences[Key(kind: .capture, name: field + " = " + value, measure: .present), default: Counts()]
                        .add(seen.contains(value), failing: failing)
                }
            }
        }
    }

    /// The test that ran before, the host and the configuration. The test before differs from
    /// attempt to attempt; the host and the configuration are the run's, which its retries share:
    /// they are counted by run (a run with a failing attempt, a run with a passing one), or a run's
    /// retries would count as evidence again.
    private mutating func compareSurroundings(_ attempts: [AttemptEvidence]) {
        var categories: [(CulpritReport.Kind, (AttemptEvidence) -> String?, byRun: Bool)] = [
            (.precedingTest, \.preceding, false), (.host, \.host, true),
        ]
        if comparesConfigurations { categories.append((.configuration, \.configuration, true)) }
        for (kind, value, byRun) in categories {
            var seen = (failing: 0, passing: 0)
            var with: [String: (failing: Int, passing: Int)] = [:]
            var counted = (failing: Set<String>(), passing: Set<String>())
            for attempt in attempts {
                guard let own = value(attempt) else { continue }
                if byRun {
                    let first =
                        attempt.isFailing
                        ? counted.failing.insert(attempt.run).inserted : counted.passing.insert(attempt.run).inserted
                    guard first else { continue }
                }
                if attempt.isFailing {
                    seen.failing += 1
                    with[own, default: (0, 0)].failing += 1
                } else {
                    seen.passing += 1
                    with[own, default: (0, 0)].passing += 1
                }
            }
            for (name, count) in with {
                presences[Key(kind: kind, name: name, measure: .present)] = Counts(
                    failingWith: count.failing, failingSeen: seen.failing, passingWith: count.passing,
                    passingSeen: seen.passing)
            }
        }
    }

    /// Which other tests failed in the same runs as the attempts, each run counted once on each
    /// side it is on: a run where the test failed and then passed counts on both.
    private mutating func compareCoFailures(_ attempts: [AttemptEvidence]) {
        var runs: [(failing: Bool, run: WindowFailures.Run)] = []
        var counted = (failing: Set<String>(), passing: Set<String>())
        for attempt in attempts {
            guard let failed = attempt.failedInRun else { continue }
            let first =
                attempt.isFailing
                ? counted.failing.insert(attempt.run).inserted : counted.passing.insert(attempt.run).inserted
            if first { runs.append((attempt.isFailing, failed)) }
        }
        let failingRuns = runs.count(where: \.failing)
        coFailures = WindowFailures.together(runs).map { found in
            (
                found.test,
                Counts(
                    failingWith: found.failing, failingSeen: failingRuns, passingWith: found.passing,
                    passingSeen: runs.count - failingRuns)
            )
        }
    }

    /// When a failing attempt failed: its first issue, unless the issues carry no time of their own
    /// (importers that stamp them with the attempt's start), then the start of the first step
    /// that failed with no failed step inside it; a passing attempt never did.
    private static func cutoff(_ attempt: AttemptEvidence, _ steps: [AttemptEvidence.Step]) -> Double {
        guard attempt.isFailing else { return .infinity }
        if let dated = attempt.issues.lazy.map(\.at).filter({ $0 > attempt.startedAt }).min() { return dated }
        let failed = steps.filter { $0.outcome == .failed }
        let innermost = failed.filter { outer in
            !failed.contains { $0.path.count > outer.path.count && $0.path.starts(with: outer.path) }
        }
        return innermost.map(\.startedAt).min() ?? .infinity
    }

    /// Whether a step of a failing attempt holds the failure: it never ended, was running when the
    /// attempt failed, or failed itself without starting after that.
    private static func holdsFailure(_ step: AttemptEvidence.Step, cutoff: Double) -> Bool {
        guard let ended = step.endedAt else { return true }
        guard step.startedAt <= cutoff else { return false }
        // A step that ended as the attempt failed (the next step starting) ran before it.
        return ended > cutoff || step.outcome == .failed
    }

    /// Where a failing attempt failed: its first issue's place, in the innermost step running
    /// when it failed (else the innermost that failed by then).
    private static func place(_ attempt: AttemptEvidence, _ holding: [AttemptEvidence.Step], cutoff: Double) -> Place {
        let running = holding.filter { $0.startedAt <= cutoff && ($0.endedAt ?? .infinity) > cutoff }
        let inner = (running.isEmpty ? holding : running).max {
            ($0.path.count, $0.startedAt) < ($1.path.count, $1.startedAt)
        }
        let issue = attempt.issues.min { ($0.at, $0.message) < ($1.at, $1.message) }
        return Place(file: issue?.file, line: issue?.line, activity: inner?.path.joined(separator: pathSeparator))
    }

    /// The attempt's steps by path; a path that repeats in one attempt gets its count: `Tap (2)`.
    static func keyed(_ steps: [AttemptEvidence.Step]) -> [(key: String, step: AttemptEvidence.Step)] {
        var seen: [String: Int] = [:]
        return steps.map { step in
            let path = step.path.joined(separator: pathSeparator)
            seen[path, default: 0] += 1
            let count = seen[path] ?? 1
            return (count == 1 ? path : path + " (\(count))", step)
        }
    }

    /// Each step path's place in the order steps run: its mean index over the attempts that ran it.
    private static func stepPositions(_ attempts: [AttemptEvidence]) -> [String: Double] {
        var sums: [String: (total: Double, count: Double)] = [:]
        for attempt in attempts {
            for (index, keyed) in keyed(attempt.steps).enumerated() {
                let sum = sums[keyed.key] ?? (0, 0)
                sums[keyed.key] = (sum.total + Double(index), sum.count + 1)
            }
        }
        return sums.mapValues { $0.total / $0.count }
    }

    /// A capture's fields as `Verifier.field` and the value's JSON text; nested objects by their
    /// path (`Verifier.presented.title`).
    static func flattened(_ value: JSONValue?, prefix: String) -> [(String, String)] {
        switch value {
        case .object(let members):
            return members.sorted { $0.key < $1.key }.flatMap { flattened($0.value, prefix: prefix + "." + $0.key) }
        case nil:
            return []
        case .some(let value):
            return [(prefix, value.jsonText)]
        }
    }
}
