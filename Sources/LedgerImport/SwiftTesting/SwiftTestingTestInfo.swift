import LedgerCore

/// What the importer keeps about one test function between its events.
struct SwiftTestingTestInfo {
    /// TestLedger's stable id, suite and name, from the Swift Testing id.
    var parts: SwiftTestingTestID.Parts
    var file: String?
    var line: Int?
    /// Tag names without their leading dot, sorted; `nil` when the stream carries none.
    var tags: [String]?
    var layer: Layer?
    var isParameterized: Bool
    /// How many attempts of the test the stream has started so far.
    var attempts = 0

    /// The information of a `test` record of kind `function`.
    init(_ record: SwiftTestingRecord.Test) {
        parts = SwiftTestingTestID.parts(of: record.id, name: record.name)
        file = record.sourceLocation?.file
        line = record.sourceLocation?.line
        tags = Self.normalized(record.tags ?? record.experimentalTags)
        layer = Self.layer(of: tags)
        isParameterized = record.isParameterized ?? false
    }

    /// The little that can be known of a function whose `test` record is missing.
    init(unrecordedID id: String) {
        parts = SwiftTestingTestID.parts(of: id, name: nil)
        isParameterized = false
    }

    /// A `test.start` for the given attempt of this test.
    func start(at: Double, attempt: Int) -> LedgerEvent.TestStart {
        LedgerEvent.TestStart(
            at: at, test: parts.test, attempt: attempt, suite: parts.suite, name: parts.name,
            file: file, line: line, layer: layer, tags: tags)
    }

    /// Tags as TestLedger keeps them: `.unit` (version 0's form) and `unit` both become `unit`.
    private static func normalized(_ tags: [String]?) -> [String]? {
        guard let tags, !tags.isEmpty else { return nil }
        let names = Set(tags.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 })
        return names.sorted()
    }

    /// The layer a tag names; with several, the highest, since the costliest layer rules.
    private static func layer(of tags: [String]?) -> Layer? {
        (tags ?? []).compactMap(Layer.init(rawValue:)).max()
    }
}
