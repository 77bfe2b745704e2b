/// The attempts being read, keyed by run, test and attempt.
///
/// Producers write one test's events together, so the attempt started last is kept apart from
/// the dictionary: most events find it with one comparison instead of a hash lookup.
struct PendingAttempts {
    private var latest: (key: PendingAttempt.Key, attempt: PendingAttempt)?
    private var others: [PendingAttempt.Key: PendingAttempt] = [:]

    var isEmpty: Bool { latest == nil && others.isEmpty }

    var keys: [PendingAttempt.Key] { (latest.map { [$0.key] } ?? []) + others.keys }

    func contains(_ key: PendingAttempt.Key) -> Bool {
        latest?.key == key || others[key] != nil
    }

    func start(of key: PendingAttempt.Key) -> Double? {
        latest?.key == key ? latest?.attempt.start.at : others[key]?.start.at
    }

    mutating func begin(_ key: PendingAttempt.Key, _ attempt: PendingAttempt) {
        if let latest, latest.key != key { others[latest.key] = latest.attempt }
        others[key] = nil
        latest = (key, attempt)
    }

    /// Applies `change` to the attempt; `false` when there is no such attempt.
    mutating func update(_ key: PendingAttempt.Key, _ change: (inout PendingAttempt) -> Void) -> Bool {
        if latest?.key == key, var attempt = latest?.attempt {
            latest = nil
            change(&attempt)
            latest = (key, attempt)
            return true
        }
        guard var attempt = others.removeValue(forKey: key) else { return false }
        change(&attempt)
        others[key] = attempt
        return true
    }

    mutating func remove(_ key: PendingAttempt.Key) -> PendingAttempt? {
        if latest?.key == key, let attempt = latest?.attempt {
            latest = nil
            return attempt
        }
        return others.removeValue(forKey: key)
    }
}
