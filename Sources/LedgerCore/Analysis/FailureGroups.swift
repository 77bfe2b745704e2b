import Foundation

/// Failures that share a cause: their messages match once the parts that change from run to run
/// (numbers, addresses, ids, paths, temporary names) are replaced by placeholders.
public struct FailureGroup: Codable, Hashable, Sendable {
    /// The message with its volatile parts replaced: what the group's failures share.
    public var signature: String
    /// One of its failures' messages as it was.
    public var example: String
    /// Where the failure happened, when the signature alone says too little to tell causes
    /// apart (a bare `failed`): `file:line`.
    public var location: String?
    /// Failing attempts in the group.
    public var failures: Int
    /// Runs with at least one of them.
    public var runs: Int
    /// The tests that failed so, sorted.
    public var tests: [String]
    /// When the first and the newest of its runs started (ISO 8601).
    public var firstSeen: String
    public var lastSeen: String
    /// The owners of its tests, when the project names owners.
    public var owners: [String]? = nil
}

/// One failing attempt, as the store gives it to ``FailureGrouping``.
public struct FailureSample: Hashable, Sendable {
    public var test: String
    public var run: String
    /// When its run started, in seconds since 1970.
    public var at: Double
    public var message: String
    public var file: String?
    public var line: Int?

    public init(test: String, run: String, at: Double, message: String, file: String? = nil, line: Int? = nil) {
        self.test = test
        self.run = run
        self.at = at
        self.message = message
        self.file = file
        self.line = line
    }
}

/// Groups failures by what their messages share.
public enum FailureGrouping {
    /// A signature shorter than this says too little alone; the failure's place joins it.
    static let shortSignature = 16

    /// The groups of `failures`, the largest first.
    public static func groups(_ failures: [FailureSample]) -> [FailureGroup] {
        var byKey: [String: [FailureSample]] = [:]
        var signatures: [String: (signature: String, location: String?)] = [:]
        for failure in failures {
            let signature = normalised(failure.message)
            let location =
                signature.count < shortSignature ? failure.file.map { "\($0):\(failure.line ?? 0)" } : nil
            let key = signature + "\u{0}" + (location ?? "")
            byKey[key, default: []].append(failure)
            signatures[key] = (signature, location)
        }
        return byKey.map { key, members in
            let times = members.map(\.at)
            return FailureGroup(
                signature: signatures[key]?.signature ?? "", example: members[0].message,
                location: signatures[key]?.location, failures: members.count, runs: Set(members.map(\.run)).count,
                tests: Set(members.map(\.test)).sorted(), firstSeen: iso8601(times.min() ?? 0),
                lastSeen: iso8601(times.max() ?? 0))
        }.sorted { ($1.failures, $0.signature) < ($0.failures, $1.signature) }
    }

    /// The message's first line with its volatile parts replaced: `<path>`, `<uuid>`, `<address>`,
    /// `<id>` (long hexadecimal runs), `<n>` (numbers); whitespace folded.
    public static func normalised(_ message: String) -> String {
        let firstLine = message.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        var text = firstLine
        for (pattern, placeholder) in replacements {
            text = text.replacing(pattern, with: placeholder)
        }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    private nonisolated(unsafe) static let replacements: [(Regex<Substring>, String)] = [
        (#/(?:/[^\s/:"'()<>]+)+/?/#, "<path>"),
        (#/(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/#, "<uuid>"),
        (#/(?i)\b0x[0-9a-f]+\b/#, "<address>"),
        (#/(?i)\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/#, "<id>"),
        (#/\d+(?:\.\d+)?/#, "<n>"),
    ]
}
