import Foundation
import LedgerCore

/// `.testledger.yml`: the project's name, layer rules and flaky thresholds.
///
/// ```yaml
/// project: MyApp
/// layers:
///   - pattern: "*SnapshotTests/*"
///     layer: integration
/// flaky:
///   flipRate: 0.25
///   window: 50
/// quarantine:
///   auto: mute
///   after: 10
/// owners:
///   - pattern: "AppUITests.*"
///     owners: ["@acme/ui"]
/// retries: 2
/// repeatNew: 5
/// repeatNewBudget: 300s
/// strict: true
/// verifyCommand: swift test --package-path App
/// select:
///   ignore: ["docs/**", "*.md"]
///   unskippable: ["AppTests.CheckoutTests/*"]
///   uses:
///     AppCLITests: [app-cli]
/// ```
package struct ProjectConfiguration: Decodable {
    package var project: String?
    package var layers: [LayerRule] = []
    package var flaky = FlakyThresholds()
    package var window: Int?
    /// The runs reports judge by: `window`, else ``ReportWindow/defaultRuns``.
    package var reportWindow: Int { window ?? ReportWindow.defaultRuns }
    package var quarantine = QuarantinePolicy()
    package var owners: [OwnerRule] = []
    /// How many more times `record` runs a test that failed; `nil` when not set.
    package var retries: Int?
    /// How many more times `record` runs each new test; `nil` when not set.
    package var repeatNew: Int?
    /// How long those repeats may take, in seconds (`300s`, `5m` or `300`); `nil` when not set.
    package var repeatNewBudget: Double?
    /// Whether `record` fails the job when something it reaches for cannot be reached; `nil` when not set.
    package var strict: Bool?
    /// The command `testledger mcp --allow-run` runs tests with (`swift test`); `nil` when not set.
    package var verifyCommand: String?
    /// What `select` and `record --select` read.
    package var select = Selection()
    /// How a fix `verify` proved is followed onto the default branch.
    package var fixLanding = FixLandingRule()
    /// Where the team is told of what happens to its tests.
    package var notify: [NotifyTarget] = []

    /// `.testledger.yml`'s `fixLanding`: `runs: 20` clean default-branch runs release a fix that
    /// landed (as many as rule out its rate before when not set), on `branch` (the checkout's
    /// `origin/HEAD` when not set, else `main`).
    package struct FixLandingRule: Decodable {
        package var runs: Int?
        package var branch: String?

        package init() {}

        private enum CodingKeys: String, CodingKey { case runs, branch }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            runs = try container.decodeIfPresent(Int.self, forKey: .runs)
            branch = try container.decodeIfPresent(String.self, forKey: .branch)
            if let runs, runs < 1 {
                throw DecodingError.dataCorruptedError(
                    forKey: .runs, in: container, debugDescription: "fixLanding.runs is a count, 1 or more, not \(runs)"
                )
            }
        }
    }

    /// `.testledger.yml`'s `select`.
    package struct Selection: Decodable {
        /// Patterns (as `.gitignore` writes them) of files no test reads: a change to one alone
        /// does not make every test run.
        package var ignore: [String] = []
        /// Patterns of test ids (`*` any run of characters) that run whatever changed.
        package var unskippable: [String] = []
        /// What test targets build or run that their manifest does not say, by test target: the
        /// executables they run, the library of a package they build. `nil` when not said, and
        /// then every test target depends on every executable.
        package var uses: [String: [String]]?

        package init() {}

        private enum CodingKeys: String, CodingKey { case ignore, unskippable, uses }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            ignore = try container.decodeIfPresent([String].self, forKey: .ignore) ?? []
            unskippable = try container.decodeIfPresent([String].self, forKey: .unskippable) ?? []
            uses = try container.decodeIfPresent([String: [String]].self, forKey: .uses)
            if let bad = ignore.first(where: { PathPattern($0) == nil }) {
                throw DecodingError.dataCorruptedError(
                    forKey: .ignore, in: container, debugDescription: "select.ignore: \(bad) names no file")
            }
        }

        /// The ignore patterns, read.
        package var ignorePatterns: [PathPattern] { ignore.compactMap(PathPattern.init) }
    }

    private enum CodingKeys: String, CodingKey {
        case project, layers, flaky, quarantine, owners, retries, repeatNew, repeatNewBudget, strict, verifyCommand,
            select, fixLanding, notify
    }
    private enum QuarantineKeys: String, CodingKey { case auto, after, releaseDays, releaseChance }
    private enum FlakyKeys: String, CodingKey {
        case flipRate, brokenShare, brokenStreak, recoveryChance, recoveryDays, noiseShare,
            noiseMinimumTests, decay, atRiskP95, atRiskMax, atRiskEvaluations, predicateBrokenShare,
            window, recoveredPasses, recoveredDays
    }

    package init() {}

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        project = try container.decodeIfPresent(String.self, forKey: .project)
        layers = try container.decodeIfPresent([LayerRule].self, forKey: .layers) ?? []
        owners = try container.decodeIfPresent([OwnerRule].self, forKey: .owners) ?? []
        retries = try container.decodeIfPresent(Int.self, forKey: .retries)
        strict = try container.decodeIfPresent(Bool.self, forKey: .strict)
        verifyCommand = try container.decodeIfPresent(String.self, forKey: .verifyCommand)
        select = try container.decodeIfPresent(Selection.self, forKey: .select) ?? Selection()
        fixLanding = try container.decodeIfPresent(FixLandingRule.self, forKey: .fixLanding) ?? FixLandingRule()
        notify = try container.decodeIfPresent([NotifyTarget].self, forKey: .notify) ?? []
        if let twice = Dictionary(grouping: notify, by: \.name).first(where: { $0.value.count > 1 })?.key {
            throw DecodingError.dataCorruptedError(
                forKey: .notify, in: container, debugDescription: "notify: two targets are named \(twice)")
        }
        if let retries, retries < 0 {
            throw DecodingError.dataCorruptedError(
                forKey: .retries, in: container, debugDescription: "retries is a count, 0 or more, not \(retries)")
        }
        repeatNew = try container.decodeIfPresent(Int.self, forKey: .repeatNew)
        if let repeatNew, repeatNew < 0 {
            throw DecodingError.dataCorruptedError(
                forKey: .repeatNew, in: container, debugDescription: "repeatNew is a count, 0 or more, not \(repeatNew)"
            )
        }
        // Read as text, so that `300` and `300s` both parse.
        if let budget = try container.decodeIfPresent(String.self, forKey: .repeatNewBudget) {
            guard let seconds = TimeWindow.seconds(budget) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .repeatNewBudget, in: container,
                    debugDescription: "repeatNewBudget is a duration (300s, 10m or 300), not \(budget)")
            }
            repeatNewBudget = seconds
        }
        if container.contains(.quarantine) {
            quarantine = try Self.policy(
                try container.nestedContainer(keyedBy: QuarantineKeys.self, forKey: .quarantine))
        }
        guard container.contains(.flaky) else { return }
        let flaky = try container.nestedContainer(keyedBy: FlakyKeys.self, forKey: .flaky)
        func set<T: Decodable>(_ key: FlakyKeys, _ path: WritableKeyPath<FlakyThresholds, T>) throws {
            if let value = try flaky.decodeIfPresent(T.self, forKey: key) { self.flaky[keyPath: path] = value }
        }
        try set(.flipRate, \.flipRate)
        try set(.brokenShare, \.brokenShare)
        try set(.brokenStreak, \.brokenStreak)
        for retired in [FlakyKeys.recoveredPasses, .recoveredDays] where flaky.contains(retired) {
            throw DecodingError.dataCorruptedError(
                forKey: retired, in: flaky,
                debugDescription:
                    "\(retired.rawValue) is gone: recovery now needs a quiet stretch improbable at the test's"
                    + " own flake rate; set recoveryChance (default 0.01) and recoveryDays (default 7) instead")
        }
        try set(.recoveryChance, \.recoveryChance)
        try set(.recoveryDays, \.recoveryDays)
        try set(.noiseShare, \.noiseShare)
        try set(.noiseMinimumTests, \.noiseMinimumTests)
        try set(.decay, \.decay)
        try set(.atRiskP95, \.atRiskP95)
        try set(.atRiskMax, \.atRiskMax)
        try set(.atRiskEvaluations, \.atRiskEvaluations)
        try set(.predicateBrokenShare, \.predicateBrokenShare)
        window = try flaky.decodeIfPresent(Int.self, forKey: .window)
    }

    private static func policy(_ keys: KeyedDecodingContainer<QuarantineKeys>) throws -> QuarantinePolicy {
        var policy = QuarantinePolicy()
        switch try keys.decodeIfPresent(String.self, forKey: .auto) {
        case nil, "off": policy.mutesFlakyTests = false
        case "mute": policy.mutesFlakyTests = true
        case let other?:
            throw DecodingError.dataCorruptedError(
                forKey: .auto, in: keys,
                debugDescription: "quarantine.auto is mute or off, not \(other): only muting is automatic, since a "
                    + "skipped test leaves no results to earn its release")
        }
        policy.afterRuns = try keys.decodeIfPresent(Int.self, forKey: .after) ?? policy.afterRuns
        policy.releaseDays = try keys.decodeIfPresent(Double.self, forKey: .releaseDays) ?? policy.releaseDays
        policy.releaseChance = try keys.decodeIfPresent(Double.self, forKey: .releaseChance) ?? policy.releaseChance
        return policy
    }
}
