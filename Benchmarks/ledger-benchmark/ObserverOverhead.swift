import Foundation

/// Measures what the TestLedger library adds to a suite: a generated package of trivial XCTest
/// cases run with and without recording (`TESTLEDGER_DISABLE=1`), alternating, in one go.
///
/// Each test notes the test thread's CPU time when it starts; the gaps between starts are the
/// per-test CPU cost of XCTest plus the observer, so their medians compare the two directly
/// (CPU time, not wall time: idle stalls on a shared machine would drown the difference).
enum ObserverOverhead {
    static func run(tests: Int, rounds: Int, packageRoot: URL, scratch: URL) throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "ledger-observer-overhead")
        try writePackage(at: folder, tests: tests, packageRoot: packageRoot)
        print("Observer overhead: \(tests) trivial XCTest cases, \(rounds) rounds each way (building the suite…)")
        _ = try swift(["build", "--build-tests"], folder: folder, scratch: scratch, environment: [:])
        var gaps: [Bool: [Double]] = [true: [], false: []]
        var totals: [Bool: [Double]] = [true: [], false: []]
        var predicateCosts: [Bool: [Double]] = [true: [], false: []]
        for round in 0..<(rounds * 2) {
            let recording = round % 2 == 1
            let output = folder.appending(path: "probe-\(round).txt")
            let database = folder.appending(path: "ledger-\(round).sqlite")
            var environment = ["PROBE_OUTPUT": output.path, "TESTLEDGER_DB": database.path]
            if !recording { environment["TESTLEDGER_DISABLE"] = "1" }
            let cpuBefore = childrenCPUSeconds()
            _ = try swift(["test", "--skip-build"], folder: folder, scratch: scratch, environment: environment)
            totals[recording, default: []].append(childrenCPUSeconds() - cpuBefore)
            let numbers = try String(contentsOf: output, encoding: .utf8).split(separator: "\n").compactMap {
                Double($0)
            }
            predicateCosts[recording, default: []].append(numbers.first ?? .nan)
            gaps[recording, default: []] += numbers.dropFirst()
        }
        let without = median(gaps[false] ?? [])
        let with = median(gaps[true] ?? [])
        let totalWithout = median(totals[false] ?? [])
        let totalWith = median(totals[true] ?? [])
        print(
            String(
                format: "  per test, CPU, median (without → with) %7.1f µs → %7.1f µs: +%.1f µs  (target ≤ 50 µs)",
                without * 1e6, with * 1e6, (with - without) * 1e6))
        print(
            String(
                format: "  whole `swift test`, CPU, median     %7.2f s → %7.2f s: %.2f×  (target ≤ 1.10×)",
                totalWithout, totalWith, totalWith / totalWithout))
        let predicateWith = median(predicateCosts[true] ?? [])
        let predicateWithout = median(predicateCosts[false] ?? [])
        print(
            String(
                format:
                    "  eventually {} held at once, median  %7.1f µs → %7.1f µs: +%.1f µs = %.2f%% of a 10 ms interval",
                predicateWithout * 1e6, predicateWith * 1e6, (predicateWith - predicateWithout) * 1e6,
                (predicateWith - predicateWithout) / 0.01 * 100))
    }

    /// CPU seconds (user + system) of the processes this one has waited for, and theirs.
    private static func childrenCPUSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
            getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        #else
            getrusage(RUSAGE_CHILDREN, &usage)
        #endif
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }

    private static func swift(_ arguments: [String], folder: URL, scratch: URL, environment: [String: String]) throws
        -> Int32
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift"] + arguments + ["--package-path", folder.path, "--scratch-path", scratch.path]
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("TESTLEDGER_") }
            .merging(environment) { _, new in new }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    private static func writePackage(at folder: URL, tests: Int, packageRoot: URL) throws {
        let sources = folder.appending(path: "Tests/OverheadTests")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try """
        // swift-tools-version:6.0
        import PackageDescription
        let package = Package(
            name: "OverheadSuite",
            dependencies: [.package(path: "\(packageRoot.path)")],
            targets: [.testTarget(name: "OverheadTests", dependencies: [
                .product(name: "TestLedger", package: "\(packageRoot.lastPathComponent)")])]
        )
        """.write(to: folder.appending(path: "Package.swift"), atomically: true, encoding: .utf8)
        try probeSource.write(to: sources.appending(path: "Probe.swift"), atomically: true, encoding: .utf8)
        let perClass = 100
        for index in 0..<(tests + perClass - 1) / perClass {
            let methods = (0..<min(perClass, tests - index * perClass)).map {
                "    func test\($0)() { Probe.tick() }"
            }
            try
                "import XCTest\n\nfinal class Trivial\(index)Tests: XCTestCase {\n\(methods.joined(separator: "\n"))\n}\n"
                .write(to: sources.appending(path: "Trivial\(index)Tests.swift"), atomically: true, encoding: .utf8)
        }
    }

    private static let probeSource = """
        import Foundation
        import TestLedger
        import XCTest

        /// Notes when each test starts; the last test writes the gaps and the cost of `eventually`.
        enum Probe {
            nonisolated(unsafe) static var starts: [UInt64] = []
            nonisolated(unsafe) static var predicateCost = 0.0

            /// This thread's CPU time: idle stalls of a shared machine do not count.
            static func tick() {
                var now = timespec()
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
                starts.append(UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec))
            }
        }

        final class ZZZProbeResultTests: XCTestCase {
            func testPredicateCost() {
                var costs: [Double] = []
                for _ in 0..<1_000 {
                    let start = DispatchTime.now().uptimeNanoseconds
                    _ = eventually { true }
                    costs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                }
                Probe.predicateCost = costs.sorted()[costs.count / 2]
            }

            func testWriteResults() throws {
                let gaps = zip(Probe.starts.dropFirst(), Probe.starts).map { Double($0 - $1) / 1e9 }
                let text = ([Probe.predicateCost] + gaps).map { String($0) }.joined(separator: "\\n")
                guard let path = ProcessInfo.processInfo.environment["PROBE_OUTPUT"] else { return }
                try text.write(toFile: path, atomically: false, encoding: .utf8)
            }
        }
        """
}
