import Foundation

/// The machine's load average and the process's CPU time, as the culprit report compares them
/// around each attempt: a test that fails only on a loaded machine, or that takes many times its
/// CPU time, is starved rather than slow.
public struct MachineLoad: Sendable {
    /// The load average last read, and when, in seconds of the monotonic clock.
    private var last: (at: Double, load: Double?)?

    /// A reader with nothing read yet.
    public init() {}

    /// The machine's load average over the last minute, read again at most once a second: the
    /// kernel moves it every five seconds, and reading it costs a file read on Linux.
    /// - Parameter now: the monotonic clock, in seconds.
    /// - Returns: the load average; `nil` where the system does not give one.
    public mutating func loadAverage(now: Double) -> Double? {
        if let last, now - last.at < 1 { return last.load }
        var loads = [0.0, 0.0, 0.0]
        let load = getloadavg(&loads, 1) == 1 ? loads[0] : nil
        last = (now, load)
        return load
    }

    /// The CPU seconds this process has used, user and system, all its threads.
    public static func processCPUSeconds() -> Double {
        var time = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return 0 }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The monotonic clock, in seconds.
    public static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
