extension TestSelection {
    /// Why each of `candidates` (the tests of skipped targets, as their vouching runs stored them)
    /// must run all the same: new to the base, failing or flaky lately, or unskippable.
    ///
    /// - Parameters:
    ///   - candidates: the tests of the targets selection would skip.
    ///   - known: the tests the base branch ran; `nil` when it is not known.
    ///   - base: the base branch's name, for the reason.
    ///   - troubled: the tests that failed or were flaky within the window.
    ///   - unskippable: patterns of test ids that always run (`*` any run of characters).
    /// - Returns: the reason of each test that must run, by id.
    public static func mustRun(
        _ candidates: [String], known: Set<String>?, base: String, troubled: Set<String>, unskippable: [String]
    ) -> [String: String] {
        var reasons: [String: String] = [:]
        for test in candidates {
            if let pattern = unskippable.first(where: { Glob.matches($0, test) }) {
                reasons[test] = "unskippable (\(pattern))"
            } else if troubled.contains(test) {
                reasons[test] = "failed or flaky within the window"
            } else if let known, !known.contains(test) {
                reasons[test] = "new to \(base)"
            }
        }
        return reasons
    }

    /// What the run stores of its selection: each test left out, as skipped with the reason
    /// `not-affected`; then each test target with tests, its hash, its tests and how many passed.
    ///
    /// - Parameters:
    ///   - at: when the selection was made.
    ///   - listed: every test the runner lists.
    ///   - passed: the tests whose last attempt in the run passed, named as stored: a listed test
    ///     passed when one of them is it as ``XcodebuildTestList/comparable(_:)`` compares them (a
    ///     bundle's `testLaunch (Dark Appearance)` for a listed `testLaunch()`)…
    ///   - failed: …and none of the tests whose last attempt failed is (a configuration or an
    ///     overload that failed beside one that passed).
    ///   - observing: whether the run ran everything and only notes what selection would skip.
    /// - Returns: the events, in order.
    public func events(
        at: Double, listed: [String], passed: Set<String>, failed: Set<String> = [], observing: Bool
    ) -> [LedgerEvent] {
        let passedLike = Set(passed.map(XcodebuildTestList.comparable))
        let failedLike = Set(failed.map(XcodebuildTestList.comparable))
        let didPass = { (test: String) in
            let name = XcodebuildTestList.comparable(test)
            return passedLike.contains(name) && !failedLike.contains(name)
        }
        var events: [LedgerEvent] = []
        var byModule: [String: [String]] = [:]
        for test in listed { byModule[Self.module(of: test), default: []].append(test) }
        if !observing {
            for test in listed.sorted() where skippedTarget(of: test) != nil && !didPass(test) {
                events.append(.testStart(.init(at: at, test: test)))
                events.append(
                    .testEnd(
                        .init(at: at, test: test, outcome: .skipped, duration: 0, message: RunReport.NotAffected.reason)
                    ))
            }
        }
        for target in targets {
            let tests = byModule[target.module] ?? []
            guard !tests.isEmpty else { continue }
            events.append(
                .targetRun(
                    .init(
                        at: at, target: target.target, hash: target.hash, tests: tests.count,
                        passed: tests.count(where: didPass), vouchedBy: target.vouchedBy?.run,
                        skipped: target.runs || observing ? nil : true)))
        }
        return events
    }
}
