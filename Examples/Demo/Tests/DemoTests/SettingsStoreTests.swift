import Demo
import TestLedger
import XCTest

/// A fake `UserDefaults` (Forgeries' style): it remembers what was asked of it.
final class FakeUserDefaults: KeyValueStoring {
    private(set) var values: [String: Int] = [:]
    private(set) var lastSetKey: String?
    private(set) var hasSynchronised = false

    func set(_ value: Int, forKey key: String) {
        values[key] = value
        lastSetKey = key
    }

    func integer(forKey key: String) -> Int { values[key] ?? 0 }
    func synchronize() { hasSynchronised = true }
}

final class SettingsStoreTests: XCTestCase {
    func testSavingSynchronisesTheDefaults() {
        let defaults = FakeUserDefaults()
        SettingsStore(storage: defaults).save(difficulty: .expert, soundOn: true)
        TestLedger.capture(
            verifier: "FakeUserDefaults",
            fields: [
                "lastSetKey": .string(defaults.lastSetKey ?? ""), "hasSynchronised": .bool(defaults.hasSynchronised),
                "difficulty": .number(Double(defaults.integer(forKey: "difficulty"))),
            ])
        XCTAssertTrue(defaults.hasSynchronised)
        XCTAssertEqual(defaults.lastSetKey, "sound")
    }

    func testDifficultyDefaultsToBeginner() {
        XCTAssertEqual(SettingsStore(storage: FakeUserDefaults()).difficulty, .beginner)
    }
}
