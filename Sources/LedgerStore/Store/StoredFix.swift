import Foundation
import LedgerCore

/// A fix as both stores keep it: its JSON in `fix.body`, its id the row's.
public enum StoredFix {
    /// The fix's JSON, without its id.
    public static func body(of fix: RecordedFix) throws -> String {
        var stored = fix
        stored.id = nil
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(stored), as: UTF8.self)
    }

    /// The fix a row holds.
    /// - Throws: ``StoreError`` when the body is not a fix's JSON.
    public static func fix(id: Int64, body: String) throws -> RecordedFix {
        do {
            var fix = try JSONDecoder().decode(RecordedFix.self, from: Data(body.utf8))
            fix.id = id
            return fix
        } catch {
            throw StoreError.unreadableFix(id: id, reason: "\(error)")
        }
    }
}
