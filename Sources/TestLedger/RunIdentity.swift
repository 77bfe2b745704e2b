import Foundation
import LedgerCore

/// The run this process records into, shared by every process of one test invocation.
///
/// `TESTLEDGER_RUN` wins (set by `testledger record`). Otherwise the run is named after the
/// parent process — `swift test`, which starts every `--parallel` worker — and its start time,
/// so that the workers of one invocation join one run and the next invocation starts another.
enum RunIdentity {
    static func current(environment: LedgerEnvironment = LedgerEnvironment()) -> String {
        if let given = environment.run { return given }
        let parent = getppid()
        var digest = ContentDigest()
        digest.update(
            Array("\(parent):\(startTime(of: parent) ?? ""):\(FileManager.default.currentDirectoryPath)".utf8))
        return digest.uuidString
    }

    /// The run's start as this process records it: now, with the project, revision, branch and
    /// CI that the CLI would find here.
    static func runStart(environment: LedgerEnvironment) -> LedgerEvent.RunStart {
        RunMetadata.resolve(environment: environment).runStart(at: Date().timeIntervalSince1970, source: "xctest")
    }

    /// The process's start time as the system gives it; `nil` when it cannot be read.
    static func startTime(of pid: pid_t) -> String? {
        #if os(Linux)
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // Field 22 (starttime); fields after the command name start at field 3.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 19 ? String(fields[19]) : nil
        #elseif canImport(Darwin)
            var info = kinfo_proc()
            var size = MemoryLayout<kinfo_proc>.stride
            var name: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, pid]
            guard sysctl(&name, 4, &info, &size, nil, 0) == 0 else { return nil }
            let start = info.kp_proc.p_un.__p_starttime
            return "\(start.tv_sec).\(start.tv_usec)"
        #else
            return nil
        #endif
    }
}
