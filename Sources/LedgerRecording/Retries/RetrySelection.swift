import LedgerCore

/// Which of a run's failed tests `record --retries` runs again: none of the muted ones, with
/// `--retry-only known-flaky` only those the ledger already calls flaky (a new failure stays red),
/// and none at all when more failed than the limit (a broken build, most likely, that retries
/// would only slow down).
package enum RetrySelection: Equatable {
    case nothingFailed
    /// More failed than the limit; the note says so.
    case tooMany(String)
    /// The tests to retry, and the failed ones left red because the ledger does not call them flaky.
    case retry([String], keptRed: [String] = [])

    /// - Parameters:
    ///   - failing: the run's failing tests.
    ///   - muted: the tests the quarantine mutes: their failures fail nothing, so they are not retried.
    ///   - limit: `--retry-limit`.
    ///   - knownFlaky: with `--retry-only known-flaky`, the tests the ledger called flaky before
    ///     the run: only they are retried; `nil` to retry any.
    package init(failing: [String], muted: [String], limit: Int, knownFlaky: Set<String>? = nil) {
        let mutedSet = Set(muted)
        let failed = failing.filter { !mutedSet.contains($0) }
        let retried = knownFlaky.map { known in failed.filter(known.contains) } ?? failed
        if failed.isEmpty {
            self = .nothingFailed
        } else if failed.count > limit {
            self = .tooMany(
                "\(failed.count) tests failed, more than --retry-limit \(limit) (a broken build, most likely)")
        } else {
            self = .retry(retried, keptRed: failed.filter { !retried.contains($0) })
        }
    }
}

/// With `--retry-only known-flaky`, what the ledger knew before the run: the tests it called
/// flaky, and the failures they fail with. A failure is a known flaky one when its test is, or
/// when its message falls in a failure group a flaky test is in (an infrastructure flake shared
/// by many tests).
package struct KnownFlakiness: Sendable {
    package var tests: Set<String>
    /// The signatures of the failure groups a flaky test is in, but those too short to say
    /// anything without their place.
    package var signatures: Set<String>

    package init(tests: Set<String>, groups: [FailureGroup]) {
        self.tests = tests
        signatures = Set(groups.filter { $0.location == nil && !tests.isDisjoint(with: $0.tests) }.map(\.signature))
    }

    /// Whether `test`'s failure, with `message`, is a known flaky one.
    package func covers(_ test: String, message: String?) -> Bool {
        tests.contains(test) || message.map { signatures.contains(FailureGrouping.normalised($0)) } == true
    }
}

/// `record --retry-only`: which failed tests retries are for.
package enum RetryScope: String, CaseIterable, Sendable {
    /// Every failed test that is not muted.
    case all
    /// Only tests the ledger already calls flaky: a new failure is never retried and stays red.
    case knownFlaky = "known-flaky"
}
