import LedgerCore

/// How test points become tests: their role, outcome, timing, and the events they make.
extension TAPParser {
    /// A test point at the indentation `indentation`, that arrived at `at`.
    mutating func testPoint(_ point: TAPTestPoint, text: String, indentation: Int, at: Double?) {
        let level = indentation / 4
        var role = TAPPendingPoint.Role.test
        var explanation: String?
        if level > depth { openSubtests(upTo: level) }
        if level < depth {
            let closed = closeSubtest(below: level, description: point.description)
            if closed.hadTests {
                if point.isFailure && !closed.failed {
                    explanation = "the subtest failed, though none of its tests did"
                } else {
                    role = .subtestResult
                }
            }
        }
        announcement = nil
        frames[level].points += 1
        if let number = point.number, let plan = frames[level].plan, number < 1 || number > plan.count {
            note(line: lineNumber, "test number \(number) is outside the plan 1..\(plan.count)")
            if level == 0 { runFailed = true }
        }
        if role == .test, point.isFailure {
            for index in frames.indices { frames[index].failedBelow = true }
        }
        let previous = lastPointAt ?? startedAt
        if let at { lastPointAt = at }
        pending = TAPPendingPoint(
            point: point, text: text, indentation: indentation, line: lineNumber, role: role,
            path: frames.dropFirst().map(\.id), document: frames[0].name, ordinal: frames[level].points,
            arrivedAt: at, previousAt: previous, note: explanation)
    }

    /// The pending test point's diagnostics are over: it becomes a finished test, if it is one.
    mutating func completePending() {
        if yaml != nil { closeYAML() }
        guard let pending else { return }
        self.pending = nil
        guard pending.role == .test else { return }
        let point = pending.point
        let diagnostics = TAPDiagnostics(yaml: TAPYAML.parse(pending.yaml), comments: pending.comments)
        let said = diagnostics.duration ?? point.time
        let duration: Double
        let start: Double
        if let arrived = pending.arrivedAt {
            duration = said ?? max(0, arrived - pending.previousAt)
            start = arrived - duration
        } else {
            duration = said ?? 0
            start = clock
        }
        clock = max(clock, start + duration)
        let bacon = point.ok ? nil : BaconTAPVerdict(description: point.description)
        let description = bacon?.requirement ?? point.description
        var test = TAPFinishedTest(
            path: pending.path, document: pending.document,
            name: description.isEmpty ? "test \(point.number ?? pending.ordinal)" : description,
            outcome: bacon?.outcome ?? Self.outcome(of: point), start: start, duration: duration,
            location: diagnostics.testLocation)
        if let bacon, bacon.outcome == .skipped {
            test.issue = (bacon.message ?? "empty specification: no requirement was checked", nil)
            test.issueKind = .missing
            test.message = "MISSING"
        }
        switch test.outcome {
        case .failed, .error:
            runFailed = true
            test.issue = (bacon?.message ?? diagnostics.message ?? pending.text, diagnostics.failureLocation)
            test.issueKind = test.outcome == .error ? .error : .assertion
            let message = [pending.note, diagnostics.stack].compactMap { $0 }.joined(separator: "\n")
            test.message = message.isEmpty ? nil : message.clipped
        case .passed where point.directive == .todo:
            test.message = "TODO passed" + (point.reason.map { ": \($0)" } ?? "")
        case .skipped, .expectedFailure:
            test.message = point.reason ?? diagnostics.message.map(\.clipped)
        default:
            break
        }
        waiting.append(test)
    }

    /// `ok` passed, `not ok` failed, `# SKIP` skipped, `not ok # TODO` expected failure and
    /// `ok # TODO` passed.
    static func outcome(of point: TAPTestPoint) -> Outcome {
        switch point.directive {
        case .skip: .skipped
        case .todo: point.ok ? .passed : .expectedFailure
        case nil: point.ok ? .passed : .failed
        }
    }

    /// The events of the finished tests whose subtests all have names, in order; with
    /// `naming`, all of them, an unnamed subtest called `subtest`.
    mutating func flush(naming: Bool) -> [LedgerEvent] {
        guard !waiting.isEmpty else { return [] }
        var events: [LedgerEvent] = []
        var ready = 0
        while ready < waiting.count {
            let test = waiting[ready]
            let names = test.path.compactMap { frameNames[$0] ?? (naming ? "subtest" : nil) }
            guard names.count == test.path.count else { break }
            let suite = TAPFinishedTest.suite(document: test.document, names: names)
            let scope = names.isEmpty && test.document == nil ? "" : suite
            events += test.events(id: ids.claim(scope.isEmpty ? test.name : scope + "/" + test.name), suite: suite)
            ready += 1
        }
        waiting.removeFirst(ready)
        return events
    }

    /// Checks the document's plan once it is over: a missing or unmet plan fails the run.
    mutating func finishDocument() {
        let document = frames[0]
        let prefix = document.name.map { "\($0): " } ?? ""
        guard let plan = document.plan else {
            note(line: lineNumber, "\(prefix)no plan: the stream may have been cut short")
            runFailed = true
            return
        }
        if plan.count == 0, document.points == 0 {
            note(line: lineNumber, "\(prefix)the plan 1..0 skips every test" + (plan.reason.map { ": \($0)" } ?? ""))
        } else if document.points != plan.count {
            note(line: lineNumber, "\(prefix)planned \(plan.count) tests and ran \(document.points)")
            runFailed = true
        }
    }
}
