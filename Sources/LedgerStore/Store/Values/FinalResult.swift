import LedgerCore

/// A test's final attempt in one run, as `report run` and `record`'s quarantine read it.
package struct FinalResult {
    package var test: String
    /// Its outcome; `crashed` when it never ended.
    package var outcome: Outcome
    /// The result's message, else its first issue's.
    package var message: String?
    /// Where it failed: its first issue's file and line that has a file, else the test's declaration.
    package var file: String?
    package var line: Int?
    /// Where the test is declared, when ``file`` is an issue's.
    package var declared: RunReport.Place?

    package init(
        test: String, outcome: Outcome, message: String?, file: String? = nil, line: Int? = nil,
        declared: RunReport.Place? = nil
    ) {
        (self.test, self.outcome, self.message) = (test, outcome, message)
        (self.file, self.line, self.declared) = (file, line, declared)
    }

    /// The result with its place: the first issue's with a file, else the test's declaration.
    package static func placed(
        test: String, outcome: Outcome, message: String?, issue: (file: String?, line: Int?),
        declaration: (file: String?, line: Int?)
    ) -> FinalResult {
        let declared = declaration.file.map { RunReport.Place(file: $0, line: declaration.line) }
        guard let file = issue.file else {
            return FinalResult(
                test: test, outcome: outcome, message: message, file: declared?.file, line: declared?.line)
        }
        return FinalResult(
            test: test, outcome: outcome, message: message, file: file, line: issue.line,
            declared: declared?.file == file ? nil : declared)
    }
}
