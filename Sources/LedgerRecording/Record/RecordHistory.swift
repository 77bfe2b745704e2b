import Foundation
import LedgerCore
import LedgerDelivery
import LedgerStore

/// Where `record` reads the history it plans shards and tells new tests by: the team's server
/// when `TESTLEDGER_URL` and `TESTLEDGER_TOKEN` are set (a CI machine's own ledger is new), else
/// the ledger file; the file too when the server cannot be read, which is said.
package struct RecordHistory {
    package let database: (any ResultStore)?
    package let server: ServerClient?

    package init(
        database: (any ResultStore)?, budget: NetworkBudget? = nil, environment: LedgerEnvironment = LedgerEnvironment()
    ) {
        self.database = database
        server = environment.serverURL.flatMap { url in
            environment.token.flatMap { $0.isEmpty ? nil : ServerClient(server: url, token: $0, budget: budget) }
        }
    }

    /// Each test's clean-pass durations over `runs` runs, without those of `revision`.
    package func shardTimings(project: String, runs: Int, thresholds: FlakyThresholds, revision: String?) throws
        -> ShardTimings
    {
        if let server {
            let query = ["runs": String(runs)].merging(revision.map { ["exclude-revision": $0] } ?? [:]) { a, _ in a }
            switch server.get(ShardTimings.self, project: project, path: "shard-timings", query: query) {
            case .success(let timings): return timings
            case .failure(let error): note("shard timings", error)
            }
        }
        return try database?.shardDurations(
            project: project, runs: runs, since: nil, thresholds: thresholds, now: Date().timeIntervalSince1970,
            excludingRevision: revision) ?? ShardTimings()
    }

    /// The tests known before a run of `configuration` in `project` starting at `time`.
    package func knownTests(project: String, configuration: String, base: String, at time: Double) throws
        -> TestsKnownBefore
    {
        if let server {
            let query = ["base": base, "configuration": configuration]
            switch server.get(TestsKnownBefore.self, project: project, path: "known-tests", query: query) {
            case .success(let known): return known
            case .failure(let error): note("the tests \(base) knows", error)
            }
        }
        return try database?.knownTests(project: project, configuration: configuration, base: base, at: time)
            ?? TestsKnownBefore(tests: [], comparedWith: .init(branch: nil, runs: 0))
    }

    /// What selection needs: the runs that vouch for `hashes` and the tests that must run.
    package func selectionHistory(
        project: String, hashes: [String: String], base: String, branch: String?, configuration: String, window: Int,
        thresholds: FlakyThresholds
    ) throws -> SelectionHistory {
        if let server {
            let encoded = String(decoding: try JSONEncoder().encode(hashes), as: UTF8.self)
            var query = ["hashes": encoded, "base": base, "configuration": configuration, "runs": String(window)]
            query["branch"] = branch
            switch server.get(SelectionHistory.self, project: project, path: "target-hashes", query: query) {
            case .success(let history): return history
            case .failure(let error): note("the runs that vouch for the test targets", error)
            }
        }
        return try database?.selectionHistory(
            project: project, hashes: hashes, base: base, branch: branch, configuration: configuration,
            window: window, thresholds: thresholds) ?? .none
    }

    private func note(_ what: String, _ error: ServerReadError) {
        let line = "could not read \(what) from \(server.map { "\($0.server)" } ?? "the server") (\(error.message))"
        server?.budget?.unreached(line)
        printError("testledger: \(line): using the ledger file's")
    }
}
