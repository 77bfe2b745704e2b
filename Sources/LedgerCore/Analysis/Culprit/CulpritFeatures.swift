/// What the culprit report compares, attempt by attempt: each attempt's value of every feature, or
/// nothing where the attempt could not show it (a step that would have run after the failure).
struct CulpritFeatures {
    /// What a feature measures.
    enum Measure: Hashable {
        /// The attempt has it (a step ran, a value was captured, a host).
        case present
        /// A step that runs in other attempts did not run before the failure.
        case missing
        /// Seconds: a step's or the whole attempt's.
        case seconds
        /// A check did not hold before its timeout.
        case timedOut
        /// The share of its timeout a check waited.
        case nearTimeout
    }

    /// One feature: a kind of suspect, its name and what is measured.
    struct Key: Hashable, Comparable {
        var kind: CulpritReport.Kind
        var name: String
        var measure: Measure
        /// For a check, what it waited for.
        var expect: PredicateExpectation? = nil

        static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.kind.rawValue, lhs.name, "\(lhs.measure)", lhs.expect?.rawValue ?? "")
                < (rhs.kind.rawValue, rhs.name, "\(rhs.measure)", rhs.expect?.rawValue ?? "")
        }
    }

    /// Where a failing attempt failed.
    struct Place: Hashable {
        var file: String?
        var line: Int?
        var activity: String?
    }

    /// Each attempt's features, in the attempts' order.
    private(set) var values: [[Key: Double]] = []
    /// Where each failing attempt failed, by its index.
    private(set) var places: [Int: Place] = [:]
    /// The step path of each step, check and capture feature: what contains what.
    private(set) var stepPaths: [Key: [String]] = [:]
    /// Each check's longest timeout and the waits of its evaluations that held in passing attempts.
    private(set) var checkTimes: [Key: (timeout: Double, passingWaits: [Double])] = [:]
    /// Steps, checks and captured fields compared.
    private(set) var counts = (steps: 0, checks: 0, fields: 0)

    /// The separator of a step path's names.
    static let pathSeparator = " › "

    init(_ attempts: [AttemptEvidence]) {
        let positions = Self.stepPositions(attempts)
        var stepNames = Set<String>()
        var checkNames = Set<Key>()
        var fieldNames = Set<String>()
        var fieldValues: [String: Set<String>] = [:]
        var categories: [(CulpritReport.Kind, (AttemptEvidence) -> String?)] = [
            (.precedingTest, \.preceding), (.host, \.host),
        ]
        if Set(attempts.map(\.configuration)).count > 1 { categories.append((.configuration, \.configuration)) }
        let retried = attempts.contains { $0.attempt > 1 }
        var perAttemptFields: [[String: Set<String>]] = []

        for (index, attempt) in attempts.enumerated() {
            var row: [Key: Double] = [:]
            let cutoff = attempt.isFailing ? attempt.issues.map(\.at).min() ?? .infinity : .infinity
            let steps = Self.keyed(attempt.steps)
            let failedIn = attempt.isFailing ? steps.filter { Self.holdsFailure($0.step, cutoff: cutoff) } : []
            let whereKeys = Set(failedIn.map(\.key))
            var horizon = attempt.isFailing ? -Double.infinity : .infinity
            for (key, step) in steps where step.startedAt <= cutoff {
                horizon = max(horizon, positions[key] ?? -.infinity)
            }
            var seen = Set<String>()
            for (key, step) in steps {
                seen.insert(key)
                stepNames.insert(key)
                stepPaths[Key(kind: .activity, name: key, measure: .seconds)] = step.path
                guard !whereKeys.contains(key), let ended = step.endedAt, ended <= cutoff else { continue }
                row[Key(kind: .activity, name: key, measure: .present)] = 1
                row[Key(kind: .activity, name: key, measure: .missing)] = 0
                row[Key(kind: .activity, name: key, measure: .seconds)] = ended - step.startedAt
            }
            for (key, position) in positions where !seen.contains(key) && position < horizon {
                row[Key(kind: .activity, name: key, measure: .present)] = 0
                row[Key(kind: .activity, name: key, measure: .missing)] = 1
            }
            if attempt.isFailing {
                let deepest = failedIn.max { $0.step.path.count < $1.step.path.count }
                let issue = attempt.issues.min { $0.at < $1.at }
                places[index] = Place(file: issue?.file, line: issue?.line, activity: deepest?.key)
            }

            for check in attempt.checks where check.at <= cutoff {
                let timedOut = Key(kind: .predicate, name: check.name, measure: .timedOut, expect: check.expect)
                let near = Key(kind: .predicate, name: check.name, measure: .nearTimeout, expect: check.expect)
                checkNames.insert(timedOut)
                row[timedOut] = max(row[timedOut] ?? 0, check.held ? 0 : 1)
                if check.timeout > 0 { row[near] = max(row[near] ?? 0, check.waited / check.timeout) }
                stepPaths[timedOut] = check.stepPath
                stepPaths[near] = check.stepPath
                var times = checkTimes[timedOut] ?? (0, [])
                times.timeout = max(times.timeout, check.timeout)
                if attempt.isPassing, check.held { times.passingWaits.append(check.waited) }
                checkTimes[timedOut] = times
            }

            var fields: [String: Set<String>] = [:]
            for capture in attempt.captures where capture.at <= cutoff {
                for (field, value) in Self.flattened(capture.fields, prefix: capture.verifier) {
                    fields[field, default: []].insert(value)
                    fieldValues[field, default: []].insert(value)
                    fieldNames.insert(field)
                    stepPaths[Key(kind: .capture, name: field + " = " + value, measure: .present)] = capture.stepPath
                }
            }
            perAttemptFields.append(fields)

            if retried { row[Key(kind: .attempt, name: "first try", measure: .present)] = attempt.attempt == 1 ? 1 : 0 }
            if let duration = attempt.duration {
                row[Key(kind: .duration, name: "duration", measure: .seconds)] = duration
            }
            values.append(row)
        }

        for (index, attempt) in attempts.enumerated() {
            for (field, seen) in perAttemptFields[index] {
                for value in fieldValues[field] ?? [] {
                    values[index][Key(kind: .capture, name: field + " = " + value, measure: .present)] =
                        seen.contains(value) ? 1 : 0
                }
            }
            for (kind, value) in categories {
                guard let own = value(attempt) else { continue }
                for other in Set(attempts.compactMap(value)) {
                    values[index][Key(kind: kind, name: other, measure: .present)] = other == own ? 1 : 0
                }
            }
        }
        counts = (stepNames.count, checkNames.count, fieldNames.count)
    }

    /// Whether a step of a failing attempt holds the failure: it failed, never ended, or was
    /// running when the first issue was recorded.
    private static func holdsFailure(_ step: AttemptEvidence.Step, cutoff: Double) -> Bool {
        guard let ended = step.endedAt else { return true }
        return step.outcome == .failed || (step.startedAt <= cutoff && ended >= cutoff && cutoff.isFinite)
    }

    /// The attempt's steps by path; a path that repeats in one attempt gets its count: `Tap (2)`.
    private static func keyed(_ steps: [AttemptEvidence.Step]) -> [(key: String, step: AttemptEvidence.Step)] {
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
