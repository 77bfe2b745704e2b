import Foundation
import GRDB
import LedgerCore

extension LedgerDatabase {
    public func reading<Result>(_ body: (ReportSnapshot) throws -> Result) throws -> Result {
        try writer.read { db in try body(ReportSnapshot(SQLiteReportReader(db: db))) }
    }

    static let crashedCode = Outcome.allCases.firstIndex(of: .crashed) ?? 0
    static let outcomeCodes = Outcome.allCases.enumerated().map { "WHEN '\($1.rawValue)' THEN \($0)" }
        .joined(separator: " ")

    /// Row ids as a JSON array, for `json_each(?)`, written directly: a report may pass tens of
    /// thousands.
    static func jsonArray(_ values: [Int64]) -> String {
        var text = "["
        text.reserveCapacity(values.count * 8 + 2)
        for (index, value) in values.enumerated() {
            if index > 0 { text += "," }
            text += String(value)
        }
        return text + "]"
    }

    /// Values as a JSON array, for `json_each(?)`.
    static func jsonArray(_ values: [some Encodable]) -> String {
        let data = (try? JSONEncoder().encode(values)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
