extension SwiftTestingRecord {
    /// A `test` record's payload: a suite or a test function.
    struct Test: Decodable {
        /// `suite` or `function`.
        var kind: String
        /// The opaque id events refer to, e.g. `Module.Suite/plain()/File.swift:4:3`.
        var id: String
        /// The function or type name, with argument labels: `plain()`, `check(value:)`.
        var name: String
        var sourceLocation: SourceLocation?
        var isParameterized: Bool?
        /// Tags without a leading dot (Swift 6.4 and later).
        var tags: [String]?
        /// Tags as `.name` (version 0, or 6.3 with experimental fields enabled).
        var experimentalTags: [String]?

        private enum CodingKeys: String, CodingKey {
            case kind, id, name, sourceLocation, isParameterized, tags
            case experimentalTags = "_tags"
        }
    }

    /// An `event` record's payload.
    struct Event: Decodable {
        /// `runStarted`, `testStarted`, `issueRecorded`, `testEnded`, …; unknown kinds are skipped.
        var kind: String
        var instant: Instant?
        /// The test the event is about; absent for run events and some issues.
        var testID: String?
        var messages: [Message]?
        var issue: Issue?
        /// The 1-based repetition of the test (Swift 6.4 and later).
        var iteration: Int?

        private enum CodingKeys: String, CodingKey {
            case kind, instant, testID, messages, issue, iteration
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            kind = try container.decode(String.self, forKey: .kind)
            instant = try container.decodeIfPresent(Instant.self, forKey: .instant)
            testID = try container.decodeIfPresent(String.self, forKey: .testID)
            iteration = try container.decodeIfPresent(Int.self, forKey: .iteration)
            // Only issues and skips use their text: most events are decoded faster without it.
            guard kind == "issueRecorded" || kind == "testSkipped" else { return }
            messages = try container.decodeIfPresent([Message].self, forKey: .messages)
            issue = try container.decodeIfPresent(Issue.self, forKey: .issue)
        }

        /// The messages' texts, one per line.
        var text: String {
            (messages ?? []).map(\.text).joined(separator: "\n")
        }
    }

    /// When an event happened, on two clocks.
    struct Instant: Decodable {
        /// Seconds on a monotonic clock: subtract two of these for a duration.
        var absolute: Double
        /// Seconds since 1970 on the wall clock.
        var since1970: Double
    }

    /// The issue of an `issueRecorded` event.
    struct Issue: Decodable {
        var isKnown: Bool?
        /// `error` or `warning` (Swift 6.3 and later).
        var severity: String?
        /// Whether the issue fails its test (Swift 6.3 and later).
        var isFailure: Bool?
        var sourceLocation: SourceLocation?

        /// Whether the issue fails its test: not known, and an error (every issue was one
        /// before Swift 6.3 added severities).
        var failsTest: Bool {
            guard isKnown != true else { return false }
            return isFailure ?? ((severity ?? "error") == "error")
        }
    }

    /// One human-readable line of an event.
    struct Message: Decodable {
        var symbol: String?
        var text: String
    }

    /// A place in the source; the path's key changed across versions.
    struct SourceLocation: Decodable {
        var filePath: String?
        var legacyFilePath: String?
        var fileID: String?
        var line: Int?

        /// The best file name present: `filePath`, else `_filePath`, else `fileID`.
        var file: String? { filePath ?? legacyFilePath ?? fileID }

        private enum CodingKeys: String, CodingKey {
            case filePath, fileID, line
            case legacyFilePath = "_filePath"
        }
    }
}
