/// Which of a run's failed tests `record --retries` runs again: none of the muted ones, and none
/// at all when more failed than the limit (a broken build, most likely, that retries would only
/// slow down).
package enum RetrySelection: Equatable {
    case nothingFailed
    /// More failed than the limit; the note says so.
    case tooMany(String)
    case retry([String])

    /// - Parameters:
    ///   - failing: the run's failing tests.
    ///   - muted: the tests the quarantine mutes: their failures fail nothing, so they are not retried.
    ///   - limit: `--retry-limit`.
    package init(failing: [String], muted: [String], limit: Int) {
        let mutedSet = Set(muted)
        let failed = failing.filter { !mutedSet.contains($0) }
        if failed.isEmpty {
            self = .nothingFailed
        } else if failed.count > limit {
            self = .tooMany(
                "\(failed.count) tests failed, more than --retry-limit \(limit) (a broken build, most likely)")
        } else {
            self = .retry(failed)
        }
    }
}
