import Foundation
import TestLedger
import XCTest

/// A timing check that holds on an idle machine and fails on a starved one: the work must be done
/// within twice the CPU time it takes (and 5 ms). With other processes taking the cores, its wall
/// time runs far past its CPU time.
final class ContendedTests: XCTestCase {
    func testCrunchesWithinItsBudget() {
        let wall = Date()
        let cpu = Self.threadCPUSeconds()
        var total = 0
        for number in 0..<6_000_000 { total &+= number &* number }
        let used = Self.threadCPUSeconds() - cpu
        XCTAssertNotEqual(total, 1)
        let elapsed = Date().timeIntervalSince(wall)
        XCTAssertLessThan(elapsed, 2 * used + 0.005, "took \(elapsed) s for \(used) s of work")
    }

    private static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
