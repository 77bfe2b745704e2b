import Foundation
import LedgerRecording
import Testing

/// `verify --stress N`: N threads busy beside the tests, ended once stopped.
struct BusyThreadsTests {
    /// Waits until `condition` holds, at most 30 seconds.
    func waitUntil(_ condition: () -> Bool) async throws {
        let started = ProcessInfo.processInfo.systemUptime
        while !condition(), ProcessInfo.processInfo.systemUptime - started < 30 {
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test func theThreadsWorkUntilStopped() async throws {
        let busy = BusyThreads(count: 3)
        #expect(busy.liveThreads == 3)
        try await waitUntil { busy.rounds >= 6 }
        #expect(busy.rounds >= 6, "the threads did no work")
        busy.stop()
        try await waitUntil { busy.liveThreads == 0 }
        #expect(busy.liveThreads == 0)
        let done = busy.rounds
        try await Task.sleep(for: .milliseconds(20))
        #expect(busy.rounds == done)
    }

    @Test func noneAskedForNoneStarted() {
        let idle = BusyThreads(count: 0)
        #expect(idle.liveThreads == 0 && idle.rounds == 0)
        idle.stop()
    }
}
