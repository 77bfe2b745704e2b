import Demo
import Foundation
import TestLedger
import Testing

/// Settings written through a real file-backed store survive a restart.
@Suite struct SettingsPersistenceIntegrationTests {
    final class FileDefaults: KeyValueStoring {
        let url: URL
        private var values: [String: Int]

        init(url: URL) {
            self.url = url
            let data = (try? Data(contentsOf: url)) ?? Data()
            values = (try? JSONDecoder().decode([String: Int].self, from: data)) ?? [:]
        }

        func set(_ value: Int, forKey key: String) { values[key] = value }
        func integer(forKey key: String) -> Int { values[key] ?? 0 }
        func synchronize() { try? JSONEncoder().encode(values).write(to: url) }
    }

    @Test func settingsSurviveARestart() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("demo-settings-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: url) }
        TestLedger.activity("Save, then reopen") {
            SettingsStore(storage: FileDefaults(url: url)).save(difficulty: .expert, soundOn: true)
        }
        #expect(SettingsStore(storage: FileDefaults(url: url)).difficulty == .expert)
    }
}
