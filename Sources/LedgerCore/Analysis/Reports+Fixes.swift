import Foundation

extension FlakyReport {
    /// The report with each test's followed fix: a flaky or broken test whose fix is pending,
    /// landed or regressed is marked with it; one whose fix held on the default branch and was
    /// released leaves the report, unless it flaked again after the fix landed (a flake is dated
    /// by the run that flipped: the landing run's pass after a failure is the old flake's).
    ///
    /// - Parameter fixes: each test's newest fix, of the report's project.
    /// - Returns: the report, marked.
    public func following(_ fixes: [RecordedFix]) -> FlakyReport {
        guard !fixes.isEmpty else { return self }
        let byTest = Dictionary(fixes.map { ($0.test, $0) }, uniquingKeysWith: { first, _ in first })
        func released(_ test: String, lastFlake: String?) -> Bool {
            guard let fix = byTest[test], fix.state == .released else { return false }
            guard let lastFlake, let landed = fix.landedAt, let flaked = try? Date(lastFlake, strategy: .iso8601)
            else { return true }
            return flaked.timeIntervalSince1970 <= landed
        }
        func brief(_ test: String) -> RecordedFix.Brief? {
            byTest[test].flatMap { $0.state == .released ? nil : RecordedFix.Brief($0) }
        }
        var marked = self
        marked.flaky.removeAll { released($0.test, lastFlake: $0.lastFlake) }
        marked.broken.removeAll { released($0.test, lastFlake: nil) }
        for index in marked.flaky.indices { marked.flaky[index].fix = brief(marked.flaky[index].test) }
        for index in marked.broken.indices { marked.broken[index].fix = brief(marked.broken[index].test) }
        return marked
    }
}

extension RunReport {
    /// The report with each failing test's followed fix (pending, landed or regressed), said after
    /// its evidence: `known flaky … ; fix-pending d842132c`.
    ///
    /// - Parameter fixes: each test's newest fix, of the run's project.
    /// - Returns: the report, marked.
    public func following(_ fixes: [RecordedFix]) -> RunReport {
        let byTest = Dictionary(
            fixes.filter { $0.state != .released }.map { ($0.test, $0) }, uniquingKeysWith: { first, _ in first })
        guard !byTest.isEmpty else { return self }
        var marked = self
        for index in marked.failures.indices {
            guard let fix = byTest[marked.failures[index].test] else { continue }
            let brief = RecordedFix.Brief(fix)
            marked.failures[index].fix = brief
            marked.failures[index].evidence += "; " + FlakyRendering.fixWords(brief)
        }
        return marked
    }
}
