import Foundation
import LedgerCore
import LedgerDelivery
import LedgerStore

/// Where a command's quarantine comes from: the team server's when `TESTLEDGER_URL` and
/// `TESTLEDGER_TOKEN` are set (kept on disk, and that copy used while the server cannot be
/// reached), else the local ledger's.
enum QuarantineList {
    /// The entries in force for `project` at `time`, and a note to print when they are not the
    /// server's answer of the moment.
    static func current(
        project: String, store: StoreOptions, at time: Double, budget: NetworkBudget? = nil,
        environment: LedgerEnvironment = LedgerEnvironment()
    ) throws -> (entries: [QuarantinedTest], note: String?) {
        guard let server = environment.serverURL, let token = environment.token, !token.isEmpty else {
            return (try store.open().quarantined(project: project, at: time), nil)
        }
        let cache = cacheFile(project: project, store: store)
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

    /// Writes `entries` to `file` for Bacon's module, which then reads them instead of asking.
    /// - Returns: the variable naming the file (`TESTLEDGER_QUARANTINE`), for the module's environment.
    static func handToModule(_ entries: [QuarantinedTest], at file: URL) throws -> (name: String, value: String) {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONEncoder().encode(entries).write(to: file, options: .atomic)
        return (LedgerEnvironment.Module.quarantine, file.standardizedFileURL.path)
    }

    /// The copy of the server's list: beside the ledger, one file per project.
    static func cacheFile(project: String, store: StoreOptions) -> URL {
        let safe = project.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" }
        return URL(fileURLWithPath: store.filePath).deletingLastPathComponent()
            .appending(path: "quarantine-\(String(safe)).json")
    }
}
