extension LedgerRecord {
    /// The run and test of the line read before, which the next line most likely repeats.
    struct RecentStrings {
        var run: String?
        var test: String?
    }

    /// Reads the record whose members `fields` gathered, checking what the Codable conformance
    /// checks, in the same order, and failing with the same words.
    ///
    /// - Throws: ``JSONFieldProblem``, or ``UnknownEventType`` for a `type` this build does not know.
    init(reading fields: JSONFieldReader<Field>, recent: inout RecentStrings) throws {
        let version = try fields.requiredInt(.v)
        guard version == Self.version else {
            throw JSONFieldProblem("field `v`: unsupported stream version \(version); this build reads v1")
        }
        run = try fields.requiredString(.run, reusing: &recent.run)
        event = try LedgerEvent(type: fields.requiredString(.type), reading: fields, recent: &recent)
    }
}
