extension CulpritAnalysis {
    /// The briefs of a report of many tests, their suspects controlled for how many tests were
    /// judged: each test's suspect is tested at 5 % for the test alone, so across a report of a
    /// hundred flaky tests that fail at random, five would be named a suspect by chance. The
    /// Benjamini–Hochberg procedure keeps a suspect only where its chance `p` is within
    /// `rank / judged × significance`, ranked among the judged tests' (a test with no suspect
    /// counting as 1): a report where every test fails at random names none 95 times in 100, while
    /// a cause that separates clearly is kept.
    /// - Parameters:
    ///   - briefs: each test's brief, by test (its id, or its place in the report); those with too
    ///     few failures were not judged.
    ///   - significance: the report's chance of naming any suspect where none is.
    /// - Returns: the briefs, those whose suspect did not survive with no suspect and no separation.
    public static func controllingFalseDiscoveries<Test: Hashable & Comparable>(
        _ briefs: [Test: CulpritReport.Brief], significance: Double = Criteria().significance
    ) -> [Test: CulpritReport.Brief] {
        let judged = briefs.filter { $0.value.verdict != .tooFewFailures }.map {
            (test: $0.key, p: $0.value.suspect?.p ?? 1)
        }
        .sorted { $0.p != $1.p ? $0.p < $1.p : $0.test < $1.test }
        let kept = judged.indices.last { judged[$0].p <= Double($0 + 1) / Double(judged.count) * significance }
        var controlled = briefs
        for (rank, test) in judged.enumerated() where rank > (kept ?? -1) {
            guard var brief = controlled[test.test], brief.suspect != nil else { continue }
            brief.suspect = nil
            brief.verdict = .noSeparation
            controlled[test.test] = brief
        }
        return controlled
    }
}
