/// The tests that failed in each run of a window, kept once for every test a report compares: for
/// each test, the runs it failed in as bits. Which tests fail in the same runs as one is then a few
/// word operations per other test, not a string per name per run.
public final class WindowFailures: Sendable {
    /// The tests that failed in some run, by index.
    let tests: [String]
    /// Each test's index.
    let index: [String: Int]
    /// The words of one test's bits.
    let words: Int
    /// Test `t`'s bits are `bits[t * words ..< (t + 1) * words]`; run `r` is bit `r % 64` of word `r / 64`.
    let bits: [UInt64]

    /// The window from each run's failing tests.
    /// - Parameter failed: for each run of the window, in order, the tests with a failing attempt in it.
    public init(failed: [[String]]) {
        var index: [String: Int] = [:]
        var tests: [String] = []
        var failures: [(test: Int, run: Int)] = []
        for (run, names) in failed.enumerated() {
            for test in names {
                let known = index[test] ?? tests.count
                if known == tests.count {
                    index[test] = known
                    tests.append(test)
                }
                failures.append((known, run))
            }
        }
        let words = (failed.count + 63) / 64
        var bits = [UInt64](repeating: 0, count: tests.count * words)
        for (test, run) in failures { bits[test * words + run / 64] |= 1 << UInt64(run % 64) }
        (self.tests, self.index, self.words, self.bits) = (tests, index, words, bits)
    }

    /// One run of a window, seen from one of its tests: the other tests that failed in it.
    public struct Run: Hashable, Sendable {
        let window: WindowFailures
        let run: Int
        /// The index of the test it is seen from, when that test failed in some run.
        let own: Int?

        /// Run `run` (its index in the window) of `window`, less `test`.
        public init(_ window: WindowFailures, run: Int, excluding test: String) {
            (self.window, self.run, self.own) = (window, run, window.index[test])
        }

        /// A run of its own, where `tests` failed.
        public init(failed tests: Set<String>) {
            self.init(WindowFailures(failed: [tests.sorted()]), run: 0, excluding: "")
        }

        /// The other tests that failed in the run.
        public var tests: Set<String> {
            let (word, bit) = (run / 64, UInt64(1) << UInt64(run % 64))
            return Set(
                window.tests.indices.lazy.filter { $0 != own && window.bits[$0 * window.words + word] & bit != 0 }
                    .map { window.tests[$0] })
        }

        public static func == (lhs: Run, rhs: Run) -> Bool { lhs.tests == rhs.tests }
        public func hash(into hasher: inout Hasher) { hasher.combine(tests) }
    }
}

extension WindowFailures {
    /// How often each other test failed in the runs where one test failed and in those where it
    /// passed, from its runs (each counted once on each side it is on).
    /// - Parameter runs: the runs compared, each with whether the test failed in it.
    /// - Returns: every test that failed in at least one of them, with its two counts, in the
    ///   order the window holds them.
    static func together(_ runs: [(failing: Bool, run: Run)]) -> [(test: String, failing: Int, passing: Int)] {
        guard let first = runs.first?.run.window else { return [] }
        // Runs of different windows (made by hand) are first joined into one.
        guard runs.allSatisfy({ $0.run.window === first }) else {
            let joined = WindowFailures(failed: runs.map { $0.run.tests.sorted() })
            return together(
                runs.enumerated().map { ($1.failing, Run(joined, run: $0, excluding: "")) })
        }
        var failing = [UInt64](repeating: 0, count: first.words)
        var passing = failing
        var owns = Set<Int>()
        for (isFailing, run) in runs {
            let (word, bit) = (run.run / 64, UInt64(1) << UInt64(run.run % 64))
            if isFailing { failing[word] |= bit } else { passing[word] |= bit }
            if let own = run.own { owns.insert(own) }
        }
        var found: [(test: String, failing: Int, passing: Int)] = []
        for test in first.tests.indices where !owns.contains(test) {
            var (failedWith, passedWith) = (0, 0)
            for word in 0..<first.words {
                let bits = first.bits[test * first.words + word]
                failedWith += (bits & failing[word]).nonzeroBitCount
                passedWith += (bits & passing[word]).nonzeroBitCount
            }
            if failedWith + passedWith > 0 { found.append((first.tests[test], failedWith, passedWith)) }
        }
        return found
    }
}
