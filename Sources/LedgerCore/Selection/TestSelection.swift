/// Which test targets a change can break, and which of the others a stored run vouches for.
///
/// A test target runs when a file of it, or of a target it depends on through any path,
/// changed, or when no complete, uninterrupted, passing run with its hash vouches for it. Every
/// test runs when a manifest changed, when a changed file belongs to no target and no ignore
/// pattern, or when the change cannot be told. Tests that must run whatever the graph says (new
/// to the base, failing or flaky lately, unskippable) run inside skipped targets too.
public struct TestSelection: Sendable, Equatable, Codable {
    /// A test target and whether it runs.
    public struct Target: Sendable, Equatable, Codable {
        public var target: String
        /// Its module: the first part of its tests' ids.
        public var module: String
        public var hash: String
        public var runs: Bool
        /// Why it runs or not.
        public var reason: String
        /// The run that vouches for it, when it does not run.
        public var vouchedBy: Vouch?

        /// The reason of a target that did not change but runs: no stored run vouches for its hash.
        public static let unvouched =
            "no complete, passing run with its hash (its code, Package.resolved, toolchain or configuration differ)"
    }

    /// A test that runs although its target is skipped, and why.
    public struct KeptTest: Sendable, Equatable, Codable {
        public var test: String
        public var reason: String
    }

    /// The files that differ from the merge base, uncommitted ones too.
    public var changedFiles: [String]
    /// Why every test runs, when they all do.
    public var everything: String?
    /// Each test target, by name.
    public var targets: [Target]
    /// The tests of skipped targets that run all the same.
    public var alwaysRun: [KeptTest] = []

    /// Decides each test target.
    ///
    /// - Parameters:
    ///   - graph: the package graph.
    ///   - changedFiles: the files that differ from the merge base, from the repository's root.
    ///   - everything: why every test runs whatever changed (no merge base), when it does.
    ///   - ignore: the patterns of files no test reads (`docs/**`, `*.md`).
    ///   - hashes: each test target's hash.
    ///   - vouches: the run that vouches for each test target's hash, where one does.
    public init(
        graph: PackageGraph, changedFiles: [String], everything: String? = nil, ignore: [PathPattern] = [],
        hashes: [String: String], vouches: [String: Vouch]
    ) {
        self.changedFiles = changedFiles
        var changedTargets: [String: String] = [:]
        var forced = everything
        for file in changedFiles {
            if graph.manifest(file) != nil {
                forced = forced ?? "\(file) changed"
                continue
            }
            let owners = graph.targets(holding: file)
            for owner in owners where changedTargets[owner] == nil { changedTargets[owner] = file }
            if owners.isEmpty, !ignore.contains(where: { $0.matches(file) }) {
                forced = forced ?? "\(file) changed and belongs to no target (select.ignore lists files no test reads)"
            }
        }
        self.everything = forced
        targets = graph.testTargets.map { target in
            let decided = Target(
                target: target.name, module: target.module, hash: hashes[target.name] ?? "", runs: true, reason: "")
            return Self.decide(decided, graph: graph, changed: changedTargets, forced: forced, vouch: vouches)
        }
    }

    private static func decide(
        _ target: Target, graph: PackageGraph, changed: [String: String], forced: String?, vouch: [String: Vouch]
    ) -> Target {
        var target = target
        if let forced {
            target.reason = forced
            return target
        }
        if let file = changed[target.target] {
            target.reason = "\(file) changed"
            return target
        }
        if let dependency = graph.closure(of: target.target).sorted().first(where: { changed[$0] != nil }),
            let file = changed[dependency]
        {
            target.reason = "depends on \(dependency): \(file) changed"
            return target
        }
        guard let vouchedBy = vouch[target.target] else {
            target.reason = Target.unvouched
            return target
        }
        target.runs = false
        target.vouchedBy = vouchedBy
        target.reason = "its code did not change since run \(vouchedBy.label)"
        return target
    }

    /// Keeps `tests` (ids, each with why it must run) that belong to skipped targets.
    public mutating func keep(_ tests: [String: String]) {
        let skipped = Set(targets.filter { !$0.runs }.map(\.module))
        alwaysRun = tests.filter { skipped.contains(Self.module(of: $0.key)) }
            .map { KeptTest(test: $0.key, reason: $0.value) }
            .sorted { $0.test < $1.test }
    }

    /// Whether `test` (an id, `Module.Suite/test`) runs.
    public func runs(_ test: String) -> Bool {
        let module = Self.module(of: test)
        guard let target = targets.first(where: { $0.module == module }), !target.runs else { return true }
        return alwaysRun.contains { $0.test == test }
    }

    /// The skipped target `test` belongs to, when it is skipped.
    public func skippedTarget(of test: String) -> Target? {
        let module = Self.module(of: test)
        return targets.first { $0.module == module && !$0.runs && !alwaysRun.contains(where: { $0.test == test }) }
    }

    /// Whether every test runs.
    public var runsEverything: Bool { targets.allSatisfy(\.runs) }

    /// Whether no test runs.
    public var runsNothing: Bool { !targets.isEmpty && targets.allSatisfy { !$0.runs } && alwaysRun.isEmpty }

    /// The arguments that run the selection: none when every test runs (a runner given none runs
    /// all); `--filter` of each running target and kept test for `swift test`, `-only-testing:`
    /// for `xcodebuild`.
    public func arguments(for runner: TestRunner) -> [String] {
        guard !runsEverything else { return [] }
        let running = targets.filter(\.runs)
        switch runner {
        case .swiftTest:
            return running.flatMap { ["--filter", SkipArguments.swiftTestSuitePattern($0.module)] }
                + SkipArguments.swiftTestArguments(selecting: alwaysRun.map(\.test))
        case .xcodebuild:
            return running.map { "-only-testing:" + $0.target }
                + alwaysRun.map { "-only-testing:" + SkipArguments.xcodebuildName($0.test) }
        case .module:
            return []
        }
    }

    /// The arguments for a command the ledger does not wrap: ``arguments(for:)``, or, when no
    /// test runs, those that run none (no arguments would run them all).
    public func commandArguments(for runner: TestRunner) -> [String] {
        guard runsNothing else { return arguments(for: runner) }
        switch runner {
        case .swiftTest: return ["--skip", "."]
        case .xcodebuild: return targets.map { "-skip-testing:" + $0.target }
        case .module: return []
        }
    }

    /// The module of a test id: its part before the first dot.
    public static func module(of test: String) -> String {
        String(test.prefix { $0 != "." && $0 != "/" })
    }
}

/// The stored run that vouches for a test target: it ran every test the runner listed for it,
/// all passed, with the same hash, and it was not interrupted.
public struct Vouch: Sendable, Hashable, Codable {
    /// The run's id.
    public var run: String
    /// Its revision, when known.
    public var revision: String?
    /// When it started, in seconds since 1970.
    public var at: Double

    public init(run: String, revision: String?, at: Double) {
        (self.run, self.revision, self.at) = (run, revision, at)
    }

    /// `8f3…` (or `8f3… (1a2b3c4)` with its revision): how messages name the run.
    public var label: String {
        String(run.prefix(3)) + "…" + (revision.map { " (\($0.prefix(7)))" } ?? "")
    }
}
