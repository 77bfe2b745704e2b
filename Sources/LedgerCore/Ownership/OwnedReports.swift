extension TestOwners {
    /// A test's owners for a report: `nil` (left out of JSON) when the project names no owners.
    func reported(_ test: String) -> [String]? { isEmpty ? nil : self(test) }
}

extension FlakyReport {
    /// The report with each test's owners.
    public func owned(by owners: TestOwners) -> FlakyReport {
        var owned = self
        for index in owned.flaky.indices { owned.flaky[index].owners = owners.reported(owned.flaky[index].test) }
        for index in owned.broken.indices { owned.broken[index].owners = owners.reported(owned.broken[index].test) }
        for index in owned.recovered.indices {
            owned.recovered[index].owners = owners.reported(owned.recovered[index].test)
        }
        return owned
    }

    /// The report with only the tests and predicates of one owner.
    public func only(owner: String, owners: TestOwners) -> FlakyReport {
        var only = self
        only.flaky.removeAll { !owners($0.test).includesOwner(owner) }
        only.broken.removeAll { !owners($0.test).includesOwner(owner) }
        only.recovered.removeAll { !owners($0.test).includesOwner(owner) }
        only.predicates.removeAll { !owners($0.test).includesOwner(owner) }
        return only
    }
}

extension TestDetail {
    /// The detail with the test's owners.
    public func owned(by owners: TestOwners) -> TestDetail {
        var owned = self
        owned.owners = owners.reported(test)
        return owned
    }
}

extension RunReport {
    /// The report with each failure's owners.
    public func owned(by owners: TestOwners) -> RunReport {
        var owned = self
        for index in owned.failures.indices {
            owned.failures[index].owners = owners.reported(owned.failures[index].test)
        }
        owned.groups = groups.owned(by: owners)
        return owned
    }

    /// The report with only one owner's failures and fixed tests.
    public func only(owner: String, owners: TestOwners) -> RunReport {
        var only = self
        only.failures.removeAll { !owners($0.test).includesOwner(owner) }
        only.fixed.removeAll { !owners($0).includesOwner(owner) }
        only.groups = groups.compactMap { group in
            var mine = group
            mine.tests.removeAll { !owners($0).includesOwner(owner) }
            return mine.tests.isEmpty ? nil : mine
        }
        return only
    }
}

extension [FailureGroup] {
    /// The groups with the owners of their tests, each owner once, in order of first appearance.
    public func owned(by owners: TestOwners) -> [FailureGroup] {
        guard !owners.isEmpty else { return self }
        return map { group in
            var owned = group
            var seen = Set<String>()
            owned.owners = group.tests.flatMap { owners($0) }.filter { seen.insert($0).inserted }
            return owned
        }
    }
}

extension SlowReport {
    /// The report with each test's owners.
    public func owned(by owners: TestOwners) -> SlowReport {
        var owned = self
        for index in owned.slowest.indices { owned.slowest[index].owners = owners.reported(owned.slowest[index].test) }
        for index in owned.slowdowns.indices {
            owned.slowdowns[index].owners = owners.reported(owned.slowdowns[index].test)
        }
        return owned
    }

    /// The report with only one owner's tests.
    public func only(owner: String, owners: TestOwners) -> SlowReport {
        var only = self
        only.slowest.removeAll { !owners($0.test).includesOwner(owner) }
        only.slowdowns.removeAll { !owners($0.test).includesOwner(owner) }
        return only
    }
}
