import LedgerCore

/// Which failed tests `record --retries` runs again next, one process at a time, and how each
/// ended: pure, fed with every test's attempts as the store holds them after each process.
///
/// A process runs tests that have had as many attempts, so that the library in it numbers theirs
/// alike (its attempt offset). A test that crashes runs alone from then on. A test a crash kept
/// from running is run again without using one of its retries; when no test of a process ran,
/// each runs alone next, and a test run alone that leaves no attempt is given up.
struct RetrySchedule {
    /// One process to start: its tests and the attempts each had before it.
    struct Batch: Equatable {
        var tests: [String]
        var offset: Int
    }

    /// Each test's attempts in the run, in order.
    private(set) var attempts: [String: [AttemptState]]
    /// Tests that could not be run again: run alone, they left no attempt.
    private(set) var abandoned: [String] = []
    private let tests: [String]
    private let before: [String: Int]
    private let retries: Int
    private var alone: Set<String> = []

    /// - Parameters:
    ///   - attempts: each failed test's attempts after the command.
    ///   - retries: how many more attempts each test may have.
    init(attempts: [String: [AttemptState]], retries: Int) {
        self.attempts = attempts
        self.retries = retries
        tests = attempts.keys.sorted()
        before = attempts.mapValues(\.count)
        alone = Set(tests.filter { attempts[$0]?.last?.isCrash == true })
    }

    /// The next process to start: a test that crashed before, alone, else the tests with the
    /// fewest attempts; `nil` once every test passed, used its retries or was given up.
    func next() -> Batch? {
        let due = tests.filter(isDue)
        if let test = due.first(where: alone.contains) {
            return Batch(tests: [test], offset: attempts[test]?.count ?? 0)
        }
        guard let offset = due.map({ attempts[$0]?.count ?? 0 }).min() else { return nil }
        return Batch(tests: due.filter { attempts[$0]?.count == offset }, offset: offset)
    }

    /// Takes each test's attempts after `batch`'s process ended.
    mutating func take(_ batch: Batch, attempts now: [String: [AttemptState]]) {
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

    /// The tests that failed, then passed on a retry.
    var passedOnRetry: [String] {
        tests.filter { attempts[$0]?.last?.isFailure == false }
    }

    /// The tests whose last attempt failed still.
    var stillFailing: [String] {
        tests.filter { attempts[$0]?.last?.isFailure != false }
    }

    private func isDue(_ test: String) -> Bool {
        guard !abandoned.contains(test), let attempts = attempts[test], attempts.last?.isFailure != false else {
            return false
        }
        return attempts.count - (before[test] ?? 0) < retries
    }
}

extension AttemptState {
    /// Whether the attempt failed, erred or crashed; one still running when its process is gone crashed.
    var isFailure: Bool { outcome?.isFailure ?? true }

    /// Whether the attempt crashed its process, or never ended.
    var isCrash: Bool { self == .running || self == .ended(.crashed) }
}
