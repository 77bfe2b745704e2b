import Foundation

/// Writes Swift Testing event-stream lines the way one record version spells them.
struct SwiftTestingStreamBuilder {
    /// The record versions whose spellings differ.
    enum Dialect: String, CaseIterable, CustomStringConvertible {
        /// `"version": 0`: `_filePath`, `_tags` as `.name`, issues without severity.
        case v0
        /// `"version": "6.3.0"`: `filePath` and `_filePath`, severities, `_tags` when enabled.
        case v63 = "6.3.0"
        /// `"version": "6.4.0"`: `filePath` only, `tags` without dots.
        case v64 = "6.4.0"

        var description: String { rawValue }
    }

    /// The wall-clock time of absolute instant 0.
    static let epoch = 1_700_000_000.0
    static let file = "/src/Tests/SampleTests/SampleTests.swift"

    var dialect: Dialect
    private(set) var lines: [String] = []

    init(_ dialect: Dialect) {
        self.dialect = dialect
    }

    /// The stream, one record per line.
    var data: Data { Data(lines.map { $0 + "\n" }.joined().utf8) }

    mutating func function(
        _ id: String, name: String, line: Int = 4, parameterized: Bool = false, tags: [String] = []
    ) {
        var payload: [String: Any] = [
            "kind": "function", "id": id, "name": name, "isParameterized": parameterized,
            "sourceLocation": location(line: line),
        ]
        if !tags.isEmpty {
            switch dialect {
            case .v0, .v63: payload["_tags"] = tags.map { "." + $0 }
            case .v64: payload["tags"] = tags
            }
        }
        record("test", payload)
    }

    mutating func suite(_ id: String, name: String, displayName: String? = nil) {
        var payload: [String: Any] = [
            "kind": "suite", "id": id, "name": name, "sourceLocation": location(line: 2),
        ]
        payload["displayName"] = displayName
        record("test", payload)
    }

    /// An event at `time` seconds on the monotonic clock; `messages` are (symbol, text) pairs.
    mutating func event(
        _ kind: String, _ testID: String? = nil, at time: Double,
        messages: [(String, String)] = [], extra: [String: Any] = [:]
    ) {
        var payload: [String: Any] = [
            "kind": kind, "instant": ["absolute": time, "since1970": Self.epoch + time],
            "messages": messages.map { ["symbol": $0.0, "text": $0.1] },
        ]
        payload["testID"] = testID
        payload.merge(extra) { _, new in new }
        record("event", payload)
    }

    /// An `issueRecorded` event; `severity` is left out in version 0, which had none.
    mutating func issue(
        _ testID: String?, at time: Double, known: Bool = false, warning: Bool = false,
        messages: [(String, String)], line: Int = 7
    ) {
        var issue: [String: Any] = ["isKnown": known, "sourceLocation": location(line: line)]
        if dialect != .v0 {
            issue["severity"] = warning ? "warning" : "error"
            issue["isFailure"] = !known && !warning
        }
        event("issueRecorded", testID, at: time, messages: messages, extra: ["issue": issue])
    }

    /// A raw line, for malformed input.
    mutating func raw(_ line: String) {
        lines.append(line)
    }

    private func location(line: Int) -> [String: Any] {
        var location: [String: Any] = ["line": line, "column": 2]
        switch dialect {
        case .v0:
            location["_filePath"] = Self.file
            location["fileID"] = "SampleTests/SampleTests.swift"
        case .v63:
            location["_filePath"] = Self.file
            location["filePath"] = Self.file
        case .v64:
            location["filePath"] = Self.file
        }
        return location
    }

    private mutating func record(_ kind: String, _ payload: [String: Any]) {
        let version: Any = dialect == .v0 ? 0 : dialect.rawValue
        let object: [String: Any] = ["kind": kind, "payload": payload, "version": version]
        let json =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        lines.append(String(decoding: json, as: UTF8.self))
    }
}
