/// Which failed tests `record --retries` runs again next, one process at a time, and how each
/// ended: pure, fed with every test's attempts as the store holds them after each process.
///
/// A process runs tests that have had as many attempts, so that the library in it numbers theirs
/// alike (its attempt offset). A test that crashes runs alone from then on. A test a crash kept
/// from running is run again without using one of its retries; when no test of a process ran,
/// each runs alone next, and a test run alone that leaves no attempt is given up.
///
/// Each process either adds an attempt to one of its tests, sends its tests to run alone, or
/// gives its one test up, so with `n` tests there are at most `n × (retries + 2)` processes.
///
/// ```swift
/// var schedule = RetrySchedule(attempts: ["A/t": [.ended(.failed)]], retries: 2)
/// while let batch = schedule.next() {
///     // run batch.tests with TESTLEDGER_ATTEMPT_OFFSET=batch.offset, then read the store
///     schedule.take(batch, attempts: ["A/t": [.ended(.failed), .ended(.passed)]])
/// }
/// schedule.passedOnRetry  // ["A/t"]
/// ```
public struct RetrySchedule: Sendable {
    /// One process to start: its tests and the attempts each had before it.
    public struct Batch: Equatable, Sendable {
        /// The tests the process runs, in order.
        public var tests: [String]
        /// The attempts each of them had in the run before it: the process's attempt offset.
        public var offset: Int

        /// A process that runs `tests`, each of which had `offset` attempts.
        /// - Parameters:
        ///   - tests: the tests the process runs, in order.
        ///   - offset: the attempts each of them had in the run before it.
        public init(tests: [String], offset: Int) {
            self.tests = tests
            self.offset = offset
        }
    }

    /// Each test's attempts in the run, in order.
    public private(set) var attempts: [String: [AttemptState]]
    /// Tests that could not be run again: run alone, they left no attempt.
    public private(set) var abandoned: [String] = []
    private let tests: [String]
    private let before: [String: Int]
    private let retries: Int
    /// Whether a test runs its every retry whatever its attempts end as (`record --repeat-new`),
    /// rather than until it passes.
    private let repeating: Bool
    private var alone: Set<String> = []

    /// A schedule for the tests that failed in the command.
    /// - Parameters:
    ///   - attempts: each failed test's attempts after the command; one whose last crashed
    ///     (or never ended) runs alone.
    ///   - retries: how many more attempts each test may have.
    public init(attempts: [String: [AttemptState]], retries: Int) {
        self.init(attempts: attempts, retries: retries, repeating: false)
    }

    /// A schedule that runs each test `times` more times whatever its attempts end as: new
    /// tests proven before they merge (`record --repeat-new`).
    /// - Parameters:
    ///   - attempts: each test's attempts after the command (and its retries).
    ///   - times: how many more attempts each test has.
    public init(repeating attempts: [String: [AttemptState]], times: Int) {
        self.init(attempts: attempts, retries: times, repeating: true)
    }

    private init(attempts: [String: [AttemptState]], retries: Int, repeating: Bool) {
        self.attempts = attempts
        self.retries = retries
        self.repeating = repeating
        tests = attempts.keys.sorted()
        before = attempts.mapValues(\.count)
        alone = Set(tests.filter { attempts[$0]?.last?.isCrash == true })
    }

    /// The next process to start: a test that crashed before, alone, else the tests with the
    /// fewest attempts.
    /// - Returns: the process's tests and attempt offset; `nil` once every test passed, used its
    ///   retries or was given up.
    public func next() -> Batch? {
        let due = tests.filter(isDue)
        if let test = due.first(where: alone.contains) {
            return Batch(tests: [test], offset: attempts[test]?.count ?? 0)
        }
        guard let offset = due.map({ attempts[$0]?.count ?? 0 }).min() else { return nil }
        return Batch(tests: due.filter { attempts[$0]?.count == offset }, offset: offset)
    }

    /// Takes each test's attempts after `batch`'s process ended.
    /// - Parameters:
    ///   - batch: the process that ended, as ``next()`` gave it.
    ///   - now: the attempts of `batch`'s tests in the run, as the store holds them now; a test
    ///     with no more than `batch.offset` did not run.
    public mutating func take(_ batch: Batch, attempts now: [String: [AttemptState]]) {
        let ran = Set(batch.tests.filter { (now[$0]?.count ?? 0) > batch.offset })
        for test in batch.tests {
            if ran.contains(test), let latest = now[test] {
                attempts[test] = latest
                if latest.last?.isCrash == true { alone.insert(test) }
            } else if batch.tests.count == 1 {
                abandoned.append(test)
            } else if ran.isEmpty {
                alone.insert(test)
            }
        }
    }

    /// How many more attempts `test` has had than it had when the schedule began.
    public func added(_ test: String) -> Int {
        (attempts[test]?.count ?? 0) - (before[test] ?? 0)
    }

    /// Stops the schedule: nothing more is due (a time budget ran out).
    public mutating func stop() {
        abandoned += tests.filter(isDue)
    }

    /// The tests that failed, then passed on a retry.
    public var passedOnRetry: [String] {
        tests.filter { attempts[$0]?.last?.isFailure == false }
    }

    /// The tests whose last attempt failed still, the abandoned among them.
    public var stillFailing: [String] {
        tests.filter { attempts[$0]?.last?.isFailure != false }
    }

    private func isDue(_ test: String) -> Bool {
        guard !abandoned.contains(test), let attempts = attempts[test], repeating || attempts.last?.isFailure != false
        else { return false }
        return added(test) < retries
    }
}

extension AttemptState {
    /// Whether the attempt failed, erred or crashed; one still running when its process is gone crashed.
    public var isFailure: Bool { outcome?.isFailure ?? true }

    /// Whether the attempt crashed its process, or never ended.
    public var isCrash: Bool { self == .running || self == .ended(.crashed) }
}
