import Foundation
import LedgerCore
import LedgerDelivery
import LedgerStore

/// Where a command's quarantine comes from: the team server's when `TESTLEDGER_URL` and
/// `TESTLEDGER_TOKEN` are set (kept on disk, and that copy used while the server cannot be
/// reached), else the local ledger's.
package enum QuarantineList {
    /// The entries in force for `project` at `time`.
    /// - Parameters:
    ///   - project: the project whose quarantine is read.
    ///   - ledgerFile: the ledger file the server's copy is kept beside.
    ///   - local: the ledger whose quarantine applies when no server is set.
    ///   - time: when the entries are in force (seconds since 1970).
    ///   - budget: the network deadline the server's answer waits within.
    ///   - environment: where the server and its token are named.
    /// - Returns: the entries, and a note to print when they are not the server's answer of the moment.
    /// - Throws: what reading the local ledger throws.
    package static func current(
        project: String, ledgerFile: String, local: () throws -> any ResultStore, at time: Double,
        budget: NetworkBudget? = nil, environment: LedgerEnvironment = LedgerEnvironment()
    ) throws -> (entries: [QuarantinedTest], note: String?) {
        guard let server = environment.serverURL, let token = environment.token, !token.isEmpty else {
            return (try local().quarantined(project: project, at: time), nil)
        }
        let cache = cacheFile(project: project, ledgerFile: ledgerFile)
        switch ServerClient(server: server, token: token, budget: budget).quarantine(project: project) {
        case .success(let entries):
            try? FileManager.default.createDirectory(
                at: cache.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? JSONEncoder().encode(entries).write(to: cache, options: .atomic)
            return (entries, nil)
        case .failure(let error):
            budget?.unreached("could not read the quarantine from \(server) (\(error.message))")
            guard let data = try? Data(contentsOf: cache),
                let entries = try? JSONDecoder().decode([QuarantinedTest].self, from: data)
            else {
                return (
                    [],
                    "could not read the quarantine from \(server) (\(error.message)) and none is cached: none applied"
                )
            }
            let saved =
                (try? FileManager.default.attributesOfItem(atPath: cache.path)[.modificationDate] as? Date)
                .map { iso8601($0.timeIntervalSince1970) } ?? "earlier"
            return (
                entries.filter { $0.isActive(at: time) },
                "could not read the quarantine from \(server) (\(error.message)): using the copy saved \(saved)"
            )
        }
    }

    /// The entries in force now for `project`, as ``current(project:ledgerFile:local:at:budget:environment:)``
    /// finds them, its note said on standard error.
    package static func inForce(
        project: String, ledgerFile: String, local: () throws -> any ResultStore, budget: NetworkBudget? = nil
    ) throws -> [QuarantinedTest] {
        let list = try current(
            project: project, ledgerFile: ledgerFile, local: local, at: Date().timeIntervalSince1970, budget: budget)
        if let note = list.note { printError("testledger: \(note)") }
        return list.entries
    }

    /// What applies `entries` to `runner` in `configuration`: the arguments that skip the skipped
    /// tests, or for a module the variable naming `moduleFile`, where the entries are written.
    /// - Returns: the arguments, or `NAME=VALUE` for a module.
    /// - Throws: what writing `moduleFile` throws.
    package static func arguments(
        for runner: TestRunner, entries: [QuarantinedTest], configuration: String, moduleFile: URL
    ) throws -> [String] {
        switch runner {
        case .swiftTest, .xcodebuild:
            let skipped = entries.filter { $0.mode == .skip && $0.applies(to: configuration) }
            return SkipArguments.arguments(for: runner, skipping: skipped.map(\.test))
        case .module:
            let variable = try handToModule(entries, at: moduleFile)
            return ["\(variable.name)=\(variable.value)"]
        }
    }

    /// Writes `entries` to `file` for Bacon's module, which then reads them instead of asking.
    /// - Returns: the variable naming the file (`TESTLEDGER_QUARANTINE`), for the module's environment.
    package static func handToModule(_ entries: [QuarantinedTest], at file: URL) throws -> (name: String, value: String)
    {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONEncoder().encode(entries).write(to: file, options: .atomic)
        return (LedgerEnvironment.Module.quarantine, file.standardizedFileURL.path)
    }

    /// The copy of the server's list: beside the ledger, one file per project.
    package static func cacheFile(project: String, ledgerFile: String) -> URL {
        let safe = project.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" }
        return URL(fileURLWithPath: ledgerFile).deletingLastPathComponent()
            .appending(path: "quarantine-\(String(safe)).json")
    }
}
