import Foundation
import LedgerCore

/// Journals of recorders that write in the background: each process appends every event to
/// `<database>.pending/<run>-<pid>.ndjson` before handing it to the store, and deletes the file
/// once everything in it is stored. A file whose process has gone (it crashed) still holds what
/// was recorded; whoever opens the store next stores it.
public enum PendingJournals {
    /// The folder of the journals that belong to the database at `databasePath`.
    /// - Parameter databasePath: the database file's path.
    /// - Returns: `<database>.pending`, beside the database; it may not exist.
    public static func folder(forDatabase databasePath: String) -> URL {
        URL(fileURLWithPath: databasePath + ".pending")
    }

    /// The journal of process `pid` recording `run`.
    /// - Parameters:
    ///   - databasePath: the database file's path.
    ///   - run: the id of the run being recorded.
    ///   - pid: the recording process's id.
    /// - Returns: `<database>.pending/<run>-<pid>.ndjson`; nothing is created.
    public static func journal(forDatabase databasePath: String, run: String, pid: Int32) -> URL {
        folder(forDatabase: databasePath).appending(path: "\(run)-\(pid).ndjson")
    }

    /// The process id a journal's name carries.
    static func pid(of journal: URL) -> Int32? {
        let name = journal.deletingPathExtension().lastPathComponent
        return name.split(separator: "-").last.flatMap { Int32($0) }
    }

    /// The run a journal's name carries.
    static func run(of journal: URL) -> String? {
        let name = journal.deletingPathExtension().lastPathComponent
        guard let dash = name.lastIndex(of: "-") else { return nil }
        return String(name[..<dash])
    }

    /// Whether the process that wrote a journal is still running. A zombie (dead, but not yet
    /// reaped, as under a container's init that reaps nothing) is not.
    static func isWriterAlive(_ journal: URL) -> Bool {
        guard let pid = pid(of: journal) else { return false }
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        return !isZombie(pid)
    }

    /// Whether Linux's `/proc/PID/stat` says the process is a zombie; `false` where there is no `/proc`.
    static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        // `pid (command) state …`: the command may hold spaces and parentheses.
        return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
    }
}
