/// `report selection`: what selection left out of each run that selected its tests, or would have
/// left out of a run that observed it (`record --select --observe`): the failures it would have
/// missed (the goal is none) and the test time it saved.
public struct SelectionReport: Codable, Sendable, Equatable {
    /// One run that selected or observed.
    public struct Run: Codable, Sendable, Equatable {
        public var run: String
        public var revision: String?
        public var at: Double
        /// `selected` when the tests were left out, `observed` when they ran and were only noted.
        public var mode: Mode
        /// The test targets the run judged.
        public var targets: Int
        /// The targets selection left out, or would have.
        public var skippedTargets: [String]
        /// Their tests that failed in the run: failures selection would have missed. Only an
        /// observed run can tell; it counts tests selection would have kept too.
        public var missedFailures: [String]
        /// The seconds the skipped targets' tests took (observed), or took in the vouching run (selected).
        public var savedSeconds: Double
        /// The seconds all the run's tests took, with those saved.
        public var testSeconds: Double
    }

    /// Whether a run left tests out, only noted what it would have left out, or was replayed
    /// (`select --replay`).
    public enum Mode: String, Codable, Sendable {
        case selected, observed, replayed
    }

    public var runs: [Run]
    /// Over all the runs: the failures missed, the seconds saved, and their share of the test time.
    public var missedFailures: Int
    public var savedSeconds: Double
    public var savedShare: Double

    /// What the store holds of a run that selected or observed.
    public struct StoredRun: Sendable {
        public var run: String
        public var revision: String?
        public var at: Double
        /// Each test target: its name, the run that vouched for it, whether its tests were left out.
        public var targets: [(target: String, vouchedBy: String?, skipped: Bool)]
        /// Each attempt of the run: its test, outcome and seconds, in attempt order per test.
        public var attempts: [(test: String, outcome: Outcome, seconds: Double)]
        /// The seconds each skipped target's tests took in its vouching run, by target name.
        public var vouchingSeconds: [String: Double]

        public init(
            run: String, revision: String?, at: Double, targets: [(target: String, vouchedBy: String?, skipped: Bool)],
            attempts: [(test: String, outcome: Outcome, seconds: Double)], vouchingSeconds: [String: Double]
        ) {
            (self.run, self.revision, self.at, self.targets) = (run, revision, at, targets)
            (self.attempts, self.vouchingSeconds) = (attempts, vouchingSeconds)
        }
    }

    /// The report of `runs`, newest first; runs where selection left nothing out and would have
    /// left nothing out are not listed.
    public init(_ runs: [StoredRun]) {
        self.init(replayed: runs.compactMap(Self.judge))
    }

    /// The report of runs already judged, newest first: each counts toward the totals.
    public init(replayed runs: [Run]) {
        self.runs = runs
        missedFailures = runs.reduce(0) { $0 + $1.missedFailures.count }
        savedSeconds = runs.reduce(0) { $0 + $1.savedSeconds }
        let total = runs.reduce(0) { $0 + $1.testSeconds }
        savedShare = total > 0 ? savedSeconds / total : 0
    }

    private static func judge(_ stored: StoredRun) -> Run? {
        let skipped = stored.targets.filter { $0.vouchedBy != nil }
        guard !skipped.isEmpty else { return nil }
        let selected = skipped.contains { $0.skipped }
        let modules = Set(skipped.map { c99Name($0.target) })
        var final: [String: Outcome] = [:]
        var saved = 0.0
        var total = 0.0
        for attempt in stored.attempts {
            final[attempt.test] = attempt.outcome
            total += attempt.seconds
            if !selected, modules.contains(TestSelection.module(of: attempt.test)) { saved += attempt.seconds }
        }
        if selected {
            saved = skipped.reduce(0) { $0 + (stored.vouchingSeconds[$1.target] ?? 0) }
            total += saved
        }
        let missed =
            selected
            ? []
            : final.filter { $0.value.isFailure && modules.contains(TestSelection.module(of: $0.key)) }.keys.sorted()
        return Run(
            run: stored.run, revision: stored.revision, at: stored.at, mode: selected ? .selected : .observed,
            targets: stored.targets.count, skippedTargets: skipped.map(\.target).sorted(), missedFailures: missed,
            savedSeconds: saved, testSeconds: total)
    }

    /// A target's module name, as SwiftPM makes it: every character that cannot be in an
    /// identifier becomes `_`.
    public static func c99Name(_ target: String) -> String {
        var name = String(target.map { $0.isLetter || $0.isNumber || $0 == "_" ? $0 : "_" })
        if let first = name.first, first.isNumber { name = "_" + name }
        return name
    }
}
