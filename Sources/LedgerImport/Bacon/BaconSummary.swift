/// The totals Bacon prints last: `16 specifications (15 requirements), 1 failures, 1 errors`
/// (SpecDox, `-s`) or `16 tests, 15 assertions, 1 failures, 1 errors` (Test::Unit style, `-q`,
/// and RubyMotion's `fast` and `colorized`).
public struct BaconSummary: Hashable, Sendable {
    /// The `it`s that ran.
    public var specifications: Int
    /// The `should`s evaluated.
    public var requirements: Int
    /// The specs in which a requirement failed.
    public var failures: Int
    /// The specs that raised an error.
    public var errors: Int

    /// Creates the totals.
    /// - Parameters:
    ///   - specifications: the `it`s that ran.
    ///   - requirements: the `should`s evaluated.
    ///   - failures: the specs in which a requirement failed.
    ///   - errors: the specs that raised an error.
    public init(specifications: Int, requirements: Int, failures: Int, errors: Int) {
        self.specifications = specifications
        self.requirements = requirements
        self.failures = failures
        self.errors = errors
    }

    /// Whether the run failed, as Bacon's exit status tells it: any failure or error (empty
    /// specs count for neither).
    public var failed: Bool { failures > 0 || errors > 0 }

    static let specDoxTemplate = "# specifications (# requirements), # failures, # errors"
    static let testUnitTemplate = "# tests, # assertions, # failures, # errors"

    /// Reads a summary line.
    /// - Returns: the totals, and whether the line has the Test::Unit style; `nil` when `line`
    ///   is not a summary.
    static func read(_ line: Substring) -> (BaconSummary, testUnit: Bool)? {
        guard line.utf8.count < 200, line.first?.isNumber == true else { return nil }
        let (template, values) = BaconText.numbers(in: line)
        guard template == specDoxTemplate || template == testUnitTemplate, values.count == 4,
            // No run counts a billion specs: a line with such a number is not Bacon's totals
            // (found by fuzzing: the sums overflowed).
            values.allSatisfy({ $0 < 1_000_000_000 })
        else { return nil }
        let summary = BaconSummary(
            specifications: values[0], requirements: values[1], failures: values[2], errors: values[3])
        return (summary, template == testUnitTemplate)
    }

    /// The seconds of `Finished in 0.23 seconds.` (Test::Unit style) or MacBacon's
    /// `Took: 0.23 seconds.`; `nil` for another line.
    static func seconds(inTimingLine line: Substring) -> Double? {
        for prefix in ["Finished in ", "Took: "] where line.hasPrefix(prefix) && line.hasSuffix(" seconds.") {
            return Double(line.dropFirst(prefix.count).dropLast(" seconds.".count))
        }
        return nil
    }
}
