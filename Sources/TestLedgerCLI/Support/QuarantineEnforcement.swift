import Foundation
import LedgerCore
import LedgerStore

/// What quarantine does to a recorded command: skipped tests left out of `swift test`, muted
/// tests' results flagged, and a build that failed only for muted tests passed.
struct QuarantineEnforcement {
    /// Muted test ids: they run, but their failures do not fail the build.
    let muted: [String]
    /// Skipped test ids: they do not run.
    let skipped: [String]

    /// The quarantine in force for a run of `configuration`.
    init(_ entries: [QuarantinedTest], configuration: String) {
        let applying = entries.filter { $0.applies(to: configuration) }
        muted = applying.filter { $0.mode == .mute }.map(\.test)
        skipped = applying.filter { $0.mode == .skip }.map(\.test)
    }

    /// The command to run: `swift test` with a `--skip` and `xcodebuild` with a `-skip-testing:` for
    /// each skipped test; another command as it is (with a warning when it has tests to skip that
    /// only its own arguments could leave out).
    func command(_ command: [String], swiftTest: SwiftTestInvocation?, xcodebuild: XcodebuildInvocation? = nil)
        -> [String]
    {
        if let xcodebuild { return xcodebuild.arguments(skipping: skipped) }
        guard let swiftTest else {
            if !skipped.isEmpty {
                FileHandle.standardError.write(
                    Data(
                        ("testledger: \(skipped.count) quarantined test(s) should be skipped, but only `swift test` "
                            + "is told so; add `testledger quarantine args --for …` to the command\n").utf8))
            }
            return command
        }
        return swiftTest.arguments(adding: SkipArguments.arguments(for: .swiftTest, skipping: skipped))
    }

    /// After `ingest`: flags the results of tests muted now in each run stored, then applies the
    /// automatic quarantine to their projects.
    static func afterIngest(runs: [String], config: ProjectConfiguration, in database: any ResultStore) throws {
        let now = Date().timeIntervalSince1970
        var projects: [String] = []
        for run in runs {
            guard let listing = try database.windowRun(id: run) else { continue }
            let quarantine = QuarantineEnforcement(
                try database.quarantined(project: listing.project, at: now), configuration: listing.configuration)
            try database.markMuted(run: run, tests: quarantine.muted)
            if !projects.contains(listing.project) { projects.append(listing.project) }
        }
        for project in projects {
            try AutomaticQuarantine.apply(config, project: project, to: database)
            try CheckoutOwnership.keep(config, project: project, in: database)
        }
    }

    /// After the command: flags the muted tests' results in `run` and decides the exit status.
    ///
    /// - Returns: the status to exit with (0 when every failure was a muted test's) and the muted
    ///   tests that failed.
    func settle(status: Int32, run: String, in database: any ResultStore) throws -> (
        status: Int32, mutedFailures: [String]
    ) {
        try database.markMuted(run: run, tests: muted)
        let failing = try database.failingTests(run: run)
        let mutedSet = Set(muted)
        let mutedFailures = failing.filter { mutedSet.contains($0) }
        // A status that says nothing of tests (a signal, a build that never ran them) is kept.
        let onlyMuted = status != 0 && status < 128 && !failing.isEmpty && mutedFailures.count == failing.count
        return (onlyMuted ? 0 : status, mutedFailures)
    }
}

/// `.testledger.yml`'s automatic quarantine, applied after a run is stored, its changes printed.
enum AutomaticQuarantine {
    static func apply(_ config: ProjectConfiguration, project: String, to database: any ResultStore) throws {
        let changes = try database.applyQuarantinePolicy(
            config.quarantine, project: project, window: config.window ?? 30, thresholds: config.flaky,
            now: Date().timeIntervalSince1970)
        for change in changes {
            let what = change.action == .remove ? "released" : "muted"
            print("testledger: quarantine: \(what) \(change.test) automatically (\(change.reason))")
        }
    }
}
