import Demo
import TestLedger
import XCTest

final class SettingsUITests: XCTestCase, LayeredTest {
    static var ledgerLayer: Layer { .ui }

    func testConfiguringTheGameSavesTheSettings() {
        let defaults = InMemoryDefaults()
        let settings = SettingsStore(storage: defaults)
        TestLedger.activity("Configure settings: beginner, off") {
            TestLedger.activity("Choose difficulty") { settings.save(difficulty: .beginner, soundOn: false) }
        }
        XCTAssertEqual(settings.difficulty, .beginner)
    }
}

final class InMemoryDefaults: KeyValueStoring {
    var values: [String: Int] = [:]
    func set(_ value: Int, forKey key: String) { values[key] = value }
    func integer(forKey key: String) -> Int { values[key] ?? 0 }
    func synchronize() {}
}
