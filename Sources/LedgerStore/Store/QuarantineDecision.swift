import LedgerCore

extension QuarantinedTest {
    /// What putting this entry in quarantine changes, given the entry there now (`nil` when the
    /// test is not there, or its entry expired): nothing when mode, reason and expiry are the same;
    /// otherwise the row to keep (its `since` kept while the mode stays) and the change to log.
    package func replacing(_ current: QuarantinedTest?, evidence: String?) -> (
        stored: QuarantinedTest, change: QuarantineChange
    )? {
        if let current, current.mode == mode, current.reason == reason, current.until == until { return nil }
        var stored = self
        if let current, current.mode == mode { stored.since = current.since }
        return (
            stored,
            QuarantineChange(
                id: 0, project: project, test: test, configuration: configuration,
                action: current == nil ? .add : .change, mode: mode, reason: reason, by: by, at: since, until: until,
                automatic: automatic, evidence: evidence)
        )
    }
}

extension QuarantineChange {
    /// A test's release from quarantine, as the trail logs it.
    package static func removal(
        project: String, test: String, configuration: String, reason: String, by: String, at: Double,
        automatic: Bool, evidence: String?
    ) -> QuarantineChange {
        QuarantineChange(
            id: 0, project: project, test: test, configuration: configuration, action: .remove, mode: nil,
            reason: reason, by: by, at: at, automatic: automatic, evidence: evidence)
    }
}

extension QuarantinedTest {
    /// Puts each of `entries` in quarantine: `current` reads the entry in force for the entry's test
    /// and configuration, when there is one; `store` keeps the row to keep; `log` appends the change
    /// to the trail and returns it as logged. An entry identical to the one in force changes nothing.
    package static func quarantining(
        _ entries: [QuarantinedTest], evidence: [String: String], current: (QuarantinedTest) throws -> QuarantinedTest?,
        store: (QuarantinedTest) throws -> Void, log: (QuarantineChange) throws -> QuarantineChange
    ) throws -> [QuarantineChange] {
        var changes: [QuarantineChange] = []
        for entry in entries {
            let active = try current(entry).flatMap { $0.isActive(at: entry.since) ? $0 : nil }
            guard let (stored, change) = entry.replacing(active, evidence: evidence[entry.test]) else { continue }
            try store(stored)
            changes.append(try log(change))
        }
        return changes
    }
}

extension QuarantineChange {
    /// Releases each of `tests` from `configuration`'s quarantine: `remove` deletes a test's entry
    /// and says whether there was one; `log` appends the removal to the trail and returns it as
    /// logged. Tests that were not there are refused, except when the automatic policy releases
    /// them: another server may have released one a moment before.
    package static func releasing(
        _ tests: [String], project: String, configuration: String, reason: String, by: String, at: Double,
        automatic: Bool, evidence: [String: String], remove: (String) throws -> Bool,
        log: (QuarantineChange) throws -> QuarantineChange
    ) throws -> [QuarantineChange] {
        var changes: [QuarantineChange] = []
        var missing: [String] = []
        for test in tests {
            guard try remove(test) else {
                missing.append(test)
                continue
            }
            changes.append(
                try log(
                    .removal(
                        project: project, test: test, configuration: configuration, reason: reason, by: by, at: at,
                        automatic: automatic, evidence: evidence[test])))
        }
        if !missing.isEmpty, !automatic {
            throw StoreError.notInQuarantine(missing, configuration: configuration)
        }
        return changes
    }
}

extension StoreError {
    /// Tests asked to leave a configuration's quarantine that are not in it.
    package static func notInQuarantine(_ tests: [String], configuration: String) -> StoreError {
        .notInQuarantine(
            tests.joined(separator: ", ")
                + (configuration == QuarantinedTest.everyConfiguration ? "" : " (\(configuration))"))
    }
}
