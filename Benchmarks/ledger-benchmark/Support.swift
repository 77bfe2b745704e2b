import Foundation
import LedgerCore
import LedgerImport
import LedgerStore

/// Counts events without keeping them: the decode-only baseline.
struct CountingSink: EventSink {
    var count = 0
    mutating func consume(_ record: LedgerRecord) throws { count += 1 }
}

/// CPU seconds, user + system, as the kernel counts them: wall time swings too much here.
enum CPUTime {
    /// This process's CPU seconds so far.
    static var ofThisProcess: Double { seconds(children: false) }
    /// The CPU seconds of the child processes this one has waited for, and theirs.
    static var ofChildren: Double { seconds(children: true) }

    private static func seconds(children: Bool) -> Double {
        var usage = rusage()
        #if os(Linux)
            getrusage((children ? RUSAGE_CHILDREN : RUSAGE_SELF).rawValue, &usage)
        #else
            getrusage(children ? RUSAGE_CHILDREN : RUSAGE_SELF, &usage)
        #endif
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// The CPU seconds every core of this machine spent busy (user, system, interrupts) since boot,
    /// from `/proc/stat`; `nil` where there is none. The whole machine's, so that a server in
    /// another process (PostgreSQL) counts too.
    static var ofThisMachine: Double? {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let line = stat.split(separator: "\n").first, line.hasPrefix("cpu ")
        else { return nil }
        let ticks = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard ticks.count >= 7 else { return nil }
        // user, nice, system, idle, iowait, irq, softirq: all but idle and iowait.
        let busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6]
        return busy / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The least CPU seconds `measure` takes over `repeats` runs, each after `prepare`, counted by
    /// `clock` (``ofThisProcess`` or ``ofChildren``).
    static func least(
        repeats: Int, _ clock: () -> Double, prepare: () throws -> Void = {}, measure: () throws -> Void
    ) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<repeats {
            try prepare()
            let start = clock()
            try measure()
            best = min(best, clock() - start)
        }
        return best
    }
}

enum Timing {
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}

enum Report {
    static func rate(_ label: String, _ count: Int, _ seconds: Double, target: Double? = nil) {
        let rate = Double(count) / seconds
        var line = "  " + label.padding(toLength: 40, withPad: " ", startingAt: 0)
        line += String(format: " %9.0f results/s  (%.2f s)", rate, seconds)
        if let target {
            line += String(
                format: "  target ≥ %.0f/s: %@ (%.2f× target)", target, rate >= target ? "met" : "MISSED", rate / target
            )
        }
        print(line)
    }

    static func duration(_ label: String, _ seconds: Double, target: Double? = nil) {
        var line = "  " + label.padding(toLength: 40, withPad: " ", startingAt: 0)
        line += String(format: " %8.3f s", seconds)
        if let target { line += String(format: "  target < %.0f s: %@", target, seconds < target ? "met" : "MISSED") }
        print(line)
    }
}

/// Peak resident memory of ingesting a large file, against only reading it, each in its own process.
enum PeakMemory {
    static func compare(megabytes: Int, in folder: URL) throws {
        let big = folder.appending(path: "big.ndjson")
        let testsPerRun = 10_000
        let bytesPerRun = 1_700_000.0
        let runs = max(1, Int(Double(megabytes) * 1_048_576 / bytesPerRun))
        try SyntheticHistory(tests: testsPerRun, runs: runs).writeLedgerStream(to: big)
        let size = (try FileManager.default.attributesOfItem(atPath: big.path)[.size] as? Int) ?? 0
        let read = try child(["--peak-rss", "read", big.path])
        let ingest = try child(["--peak-rss", "ledger", big.path])
        print("Memory while ingesting a \(size >> 20) MiB NDJSON file (peak RSS, separate processes):")
        print(String(format: "  read lines only (baseline)        %6.1f MiB", read))
        print(
            String(
                format: "  ingest into SQLite                %6.1f MiB  (%.2f× baseline, %.3f× file size)", ingest,
                ingest / read, ingest * 1_048_576 / Double(size)))
    }

    /// Runs this program with `arguments` (a `--peak-rss` mode) and reads the peak it prints.
    static func child(_ arguments: [String]) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
    }

    /// This process's peak resident memory in MiB. On Linux it is read from `VmHWM`, which
    /// starts afresh at exec (`getrusage` would report the parent's peak from before it).
    static func peakResidentMiB() -> Double {
        #if os(Linux)
            let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
            return Double(line.split(separator: " ").dropFirst().first ?? "").map { $0 / 1024 } ?? .nan
        #else
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            return Double(usage.ru_maxrss) / 1_048_576
        #endif
    }

    /// Runs in the child: does the work, then prints its peak RSS in MiB. Modes: `read FILE`,
    /// `ledger FILE [LEDGER]` (ingest into LEDGER, or a ledger of its own), `flaky LEDGER RUNS`,
    /// `trends LEDGER` (by week).
    static func measure(mode: String, file: URL, extra: String?) throws {
        if mode == "read" {
            var count = 0
            for line in LineReader(.file(file)) { count &+= line.count }
        } else if mode == "flaky" {
            let database = try LedgerDatabase(path: file.path)
            let runs = extra.flatMap { Int($0) } ?? 100
            let newest = try database.windowRuns(project: "Bench", count: 1, since: nil).first?.startedAt ?? 0
            let report = try database.flakyReport(
                project: "Bench", runs: runs, since: nil, thresholds: FlakyThresholds(), now: newest + 3_600)
            _ = try database.withCulprits(report, project: "Bench", runs: runs, since: nil)
        } else if mode == "trends" {
            _ = try TrendsScale.trends(try LedgerDatabase(path: file.path), by: .week)
        } else {
            let folder = FileManager.default.temporaryDirectory.appending(path: "ledger-benchmark-rss-\(getpid())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let database = try LedgerDatabase(path: extra ?? folder.appending(path: "ledger.sqlite").path)
            let context = ImportContext(
                runID: UUID().uuidString, sourceName: file.path, metadata: RunMetadata(project: "Bench"),
                fallbackStart: 0)
            try database.ingest { sink in
                try LedgerStreamImporter().importResults(from: .file(file), context: context, into: &sink)
            }
        }
        print(peakResidentMiB())
    }
}

extension Report {
    /// Prints a ratio against a target it must reach.
    static func ratio(_ label: String, _ value: Double, atLeast target: Double) {
        print(
            String(
                format: "  %@: %.2f×  target ≥ %.2f: %@", label, value, target, value >= target ? "met" : "MISSED"))
    }
}

extension Array where Element == Double {
    /// The value below which `share` of these sorted values lie.
    func percentile(_ share: Double) -> Double {
        self[Swift.min(count - 1, Int((Double(count) * share).rounded(.up)) - 1)]
    }
}
