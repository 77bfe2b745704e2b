/// A report's entry for one test, which may name the test's owners.
protocol OwnedEntry {
    var test: String { get }
    var owners: [String]? { get set }
}

extension FlakyReport.FlakyTest: OwnedEntry {}
extension FlakyReport.BrokenTest: OwnedEntry {}
extension FlakyReport.RecoveredTest: OwnedEntry {}
extension RunReport.Failure: OwnedEntry {}
extension SlowReport.SlowTest: OwnedEntry {}
extension SlowReport.Slowdown: OwnedEntry {}

/// A report whose entries name their tests' owners, and that can keep only one owner's.
public protocol OwnedReport {
    /// The report with each test's owners.
    func owned(by owners: TestOwners) -> Self
    /// The report with only one owner's tests.
    func only(owner: String, owners: TestOwners) -> Self
}

extension OwnedReport {
    /// The report with each test's owners and, when `owner` is given, only that owner's tests:
    /// what every door (the CLI, the API, the dashboard, MCP) applies to a report.
    public func scoped(to owner: String?, owners: TestOwners) -> Self {
        let owned = owned(by: owners)
        return owner.map { owned.only(owner: $0, owners: owners) } ?? owned
    }
}

extension FlakyReport: OwnedReport {}
extension RunReport: OwnedReport {}
extension SlowReport: OwnedReport {}

extension TestOwners {
    /// A test's owners for a report: `nil` (left out of JSON) when the project names no owners.
    func reported(_ test: String) -> [String]? { isEmpty ? nil : self(test) }
}

/// What a report's entries undergo: their owners named, or only one owner's kept.
private enum OwnerChange {
    case name(TestOwners)
    case keep(String, TestOwners)
}

extension Array where Element: OwnedEntry {
    /// Names each entry's owners, or keeps one owner's entries.
    fileprivate mutating func apply(_ change: OwnerChange) {
        switch change {
        case .name(let owners):
            for index in indices { self[index].owners = owners.reported(self[index].test) }
        case .keep(let owner, let owners):
            removeAll { !owners($0.test).includesOwner(owner) }
        }
    }
}

extension OwnedReport {
    /// The report with `change` made to the entries of each of `lists`.
    fileprivate func changing<each Entry: OwnedEntry>(
        _ change: OwnerChange, _ lists: repeat WritableKeyPath<Self, [each Entry]>
    ) -> Self {
        var changed = self
        repeat changed[keyPath: each lists].apply(change)
        return changed
    }
}

extension FlakyReport {
    /// The report with each test's owners.
    public func owned(by owners: TestOwners) -> FlakyReport {
        changing(.name(owners), \.flaky, \.broken, \.recovered)
    }

    /// The report with only the tests and predicates of one owner.
    public func only(owner: String, owners: TestOwners) -> FlakyReport {
        var only = changing(.keep(owner, owners), \.flaky, \.broken, \.recovered)
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
        var owned = changing(.name(owners), \.failures)
        owned.groups = groups.owned(by: owners)
        return owned
    }

    /// The report with only one owner's failures, fixed tests and groups' tests.
    public func only(owner: String, owners: TestOwners) -> RunReport {
        var only = changing(.keep(owner, owners), \.failures)
        only.fixed.removeAll { !owners($0).includesOwner(owner) }
        only.groups = groups.compactMap { group in
            var mine = group
            mine.tests.removeAll { !owners($0).includesOwner(owner) }
            return mine.tests.isEmpty ? nil : mine
        }
        return only
    }
}

extension SlowReport {
    /// The report with each test's owners.
    public func owned(by owners: TestOwners) -> SlowReport {
        changing(.name(owners), \.slowest, \.slowdowns)
    }

    /// The report with only one owner's tests.
    public func only(owner: String, owners: TestOwners) -> SlowReport {
        changing(.keep(owner, owners), \.slowest, \.slowdowns)
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

extension CostReport.TestCost: OwnedEntry {}

extension CostReport: OwnedReport {
    /// The report with each test's owners.
    public func owned(by owners: TestOwners) -> CostReport {
        changing(.name(owners), \.tests)
    }

    /// The report with only one owner's tests, the runs they lost, and their total.
    public func only(owner: String, owners: TestOwners) -> CostReport {
        let mine = changing(.keep(owner, owners), \.tests).tests
        let kept = Set(mine.map(\.test))
        return CostReport(runs: runs, tests: mine, lostRuns: lostRuns.filter { !kept.isDisjoint(with: $0.tests) })
    }
}
