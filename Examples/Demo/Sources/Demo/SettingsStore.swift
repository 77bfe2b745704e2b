/// Key-value storage: `UserDefaults` in the app, a fake in tests.
public protocol KeyValueStoring: AnyObject {
    func set(_ value: Int, forKey key: String)
    func integer(forKey key: String) -> Int
    func synchronize()
}

/// The game's settings, kept in a ``KeyValueStoring``.
public struct SettingsStore {
    public enum Difficulty: Int, Sendable { case beginner = 1, expert = 3 }

    private let storage: any KeyValueStoring

    public init(storage: any KeyValueStoring) {
        self.storage = storage
    }

    public var difficulty: Difficulty {
        Difficulty(rawValue: storage.integer(forKey: "difficulty")) ?? .beginner
    }

    public func save(difficulty: Difficulty, soundOn: Bool) {
        storage.set(difficulty.rawValue, forKey: "difficulty")
        storage.set(soundOn ? 1 : 0, forKey: "sound")
        storage.synchronize()
    }
}
