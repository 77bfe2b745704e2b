import LedgerCore

extension PlantedParallel {
    /// Each attempt's outcome, by the generator's own rules: a failing attempt fails when its
    /// partner ends (overlapping-test), a little after its start otherwise, and ends right after.
    func decide(
        _ slots: inout [Slot], layout: Layout, load: Double, strengths: [String: Double],
        _ numbers: inout SeededNumbers
    ) {
        let clusterBad = clusters.map { _ in numbers.chance(0.2) }
        let base = 0.02
        for index in slots.indices {
            let slot = slots[index]
            let strength = strengths[slot.test] ?? 0.9
            var failsAt: Double?
            switch tests.first(where: { $0.id == slot.test })?.cause {
            case .overlappingTest:
                let partner = slots.first { $0.test == partners[slot.test] }
                if let end = partner?.end, end > slot.start, end < slot.start + slot.wall, numbers.chance(strength) {
                    failsAt = end + 0.01
                }
            case .precedingTest:
                if slot.preceding == partners[slot.test], numbers.chance(strength) { failsAt = slot.start + 0.1 }
            case .coFailure:
                let cluster = clusters.firstIndex { $0.contains(slot.test) } ?? 0
                if clusterBad[cluster], numbers.chance(0.85) { failsAt = slot.start + 0.7 * slot.wall }
            case .load:
                if load > Self.loaded, numbers.chance(strength) { failsAt = slot.start + 0.7 * slot.wall }
            case .random:
                if numbers.chance(0.25) { failsAt = slot.start + 0.7 * slot.wall }
            case nil:
                continue
            }
            if failsAt == nil, numbers.chance(base) { failsAt = slot.start + 0.5 * slot.wall }
            slots[index].failsAt = failsAt
        }
    }

    /// The attempts as a store reads them: each with its process, the load sampled around it, its
    /// CPU time, what the other tests of the run did while it ran, and the tests that failed beside it.
    mutating func record(_ slots: [Slot], run: Int, load: Double, _ numbers: inout SeededNumbers) {
        let id = String(format: "00000000-0000-4000-b000-%012d", run)
        let failed = Set(slots.filter { $0.failsAt != nil }.map(\.test))
        var ran: [(test: String, evidence: AttemptEvidence)] = []
        for slot in slots {
            var attempt = AttemptEvidence(
                run: id, attempt: 1, outcome: slot.failsAt == nil ? .passed : .failed, startedAt: slot.start,
                duration: slot.end - slot.start, host: "mac-1", preceding: slot.preceding,
                steps: zip(["Arrange", "Act"], slot.steps).map {
                    AttemptEvidence.Step(path: [$0], startedAt: $1, endedAt: $1, outcome: .passed)
                },
                issues: slot.failsAt.map {
                    [.init(at: $0, message: "failed", file: "Tests/CartTests/CartTests.swift", line: 42)]
                } ?? [])
            attempt.process = slot.process
            attempt.load = max(0, load + 0.6 * Double(numbers.below(100)) / 100 - 0.3)
            attempt.cpu = slot.cpu * (slot.end - slot.start) / slot.wall
            attempt.beside = slots.filter { $0.test != slot.test }.flatMap { other in
                [(AttemptEvidence.Neighbour.Event.started, other.start), (.ended, other.end)]
                    .map { AttemptEvidence.Neighbour(test: other.test, event: $0.0, at: $0.1) }
                    + other.steps.map { AttemptEvidence.Neighbour(test: other.test, event: .stepped, at: $0) }
            }.filter { $0.at > slot.start && $0.at < slot.end }
            attempt.company = slots.filter { other in
                other.test != slot.test && other.start < slot.end - AttemptTimeline.slack
                    && other.end > slot.start + AttemptTimeline.slack
            }.map { other in
                AttemptEvidence.Company(
                    test: other.test, startedAt: other.start, endedAt: other.end,
                    steps: zip(["Arrange", "Act"], other.steps).map {
                        AttemptEvidence.Step(path: [$0], startedAt: $1, endedAt: $1, outcome: .passed)
                    })
            }
            attempt.failedBeside = failed.subtracting([slot.test])
            attempts[slot.test, default: []].append(attempt)
            decided[slot.test, default: []].append(slot.failsAt != nil)
            ran.append((slot.test, attempt))
        }
        runs.append(ran)
    }
}
