import Foundation

/// The app's remote configuration: one value per process, as an app's singleton is, that any test
/// may read or change.
final class RemoteConfig: @unchecked Sendable {
    static let shared = RemoteConfig()
    private let lock = NSLock()
    private var flags: [String: Bool] = [:]

    func isOn(_ flag: String) -> Bool { lock.withLock { flags[flag] ?? false } }
    func set(_ flag: String, _ value: Bool) { lock.withLock { flags[flag] = value } }
    func reset(_ flag: String) { lock.withLock { flags[flag] = nil } }
}

/// What a room costs to decorate: the new pricing (behind a flag) adds 10 %.
enum Quote {
    static func price(squareMetres: Int) -> Int {
        let base = squareMetres * 25
        return RemoteConfig.shared.isOn("newPricing") ? base * 11 / 10 : base
    }
}

/// How the race suite runs: `FIXTURE_RACE=race` races, `random` fails the quote at random, unset
/// passes at once (the suite's other runs are not slowed).
enum RaceMode {
    static var current: String? { ProcessInfo.processInfo.environment["FIXTURE_RACE"] }

    /// Sleeps a random number of milliseconds in `range`.
    static func pause(_ range: ClosedRange<Int>) async throws {
        try await Task.sleep(for: .milliseconds(Int.random(in: range)))
    }
}
