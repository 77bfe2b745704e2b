import Foundation

/// Measures what the TestLedger library adds to a suite: a generated package of trivial XCTest
/// cases, built in release as an adopter links it (`traits: []`), whose test binary runs with and
/// without recording (`TESTLEDGER_DISABLE=1`), alternating, in one go.
///
/// The figure is the test process's CPU time, user + system, recording included (the journal
/// appends, and storing the journal into SQLite when the process exits): wall time on a shared
/// machine swings far more than the difference. Two ways of recording are measured: a plain
/// `swift test`, which stores its journal into a ledger that already knows the suite (as from
/// the second run on), and under `testledger record`, which stores the journal after the suite.
enum ObserverOverhead {
    enum Mode: String, CaseIterable {
        case without = "without the library"
        case plain = "plain `swift test`"
        case underRecord = "under `testledger record`"
    }

    static func run(tests: Int, rounds: Int, packageRoot: URL, scratch: URL) throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "ledger-observer-overhead")
        try? FileManager.default.removeItem(at: folder)
        try writePackage(at: folder, tests: tests, packageRoot: packageRoot)
        print("Observer overhead: \(tests) trivial XCTest cases, release, median of \(rounds) alternating runs")
        let build = try swift(
            ["build", "-c", "release", "--build-tests", "--package-path", folder.path, "--scratch-path", scratch.path])
        guard build == 0 else { throw BuildFailed(status: build) }
        let binary = scratch.appending(path: "release/OverheadSuitePackageTests.xctest")
        let ledger = folder.appending(path: "ledger.sqlite")
        // The first recorded run creates the ledger and its tests; the measured ones find them there.
        _ = try runSuite(binary, mode: .plain, ledger: ledger, probe: nil)

        var cpu: [Mode: [Double]] = [:]
        var predicate: [Mode: [Double]] = [:]
        for round in 0..<rounds {
            for mode in Mode.allCases {
                let probe = folder.appending(path: "probe-\(round)-\(mode).txt")
                cpu[mode, default: []].append(try runSuite(binary, mode: mode, ledger: ledger, probe: probe))
                let cost = (try? String(contentsOf: probe, encoding: .utf8)).flatMap { Double($0) } ?? .nan
                predicate[mode, default: []].append(cost)
            }
        }
        let baseline = median(cpu[.without] ?? [])
        print(String(format: "  %-28@ %8.3f s CPU", Mode.without.rawValue as NSString, baseline))
        for mode in [Mode.plain, .underRecord] {
            let with = median(cpu[mode] ?? [])
            print(
                String(
                    format: "  %-28@ %8.3f s CPU: %.2f×, +%.1f µs per test  (target ≤ 50 µs, aim ≤ 20 µs)",
                    mode.rawValue as NSString, with, with / baseline, (with - baseline) / Double(tests) * 1e6))
        }
        let predicateWith = median(predicate[.plain] ?? [])
        let predicateWithout = median(predicate[.without] ?? [])
        print(
            String(
                format:
                    "  eventually {} held at once, median %7.1f µs → %7.1f µs: +%.1f µs = %.2f%% of a 10 ms interval",
                predicateWithout * 1e6, predicateWith * 1e6, (predicateWith - predicateWithout) * 1e6,
                (predicateWith - predicateWithout) / 0.01 * 100))
    }

    struct BuildFailed: Error, CustomStringConvertible {
        var status: Int32
        var description: String { "building the generated suite failed with status \(status)" }
    }

    /// Runs the test binary once; returns its CPU seconds, user + system.
    private static func runSuite(_ binary: URL, mode: Mode, ledger: URL, probe: URL?) throws -> Double {
        let process = Process()
        process.executableURL = binary
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("TESTLEDGER_") }
        environment["TESTLEDGER_DB"] = ledger.path
        // A run of its own, as each `swift test` has: here every run has the same parent process.
        environment["TESTLEDGER_RUN"] = UUID().uuidString
        environment["PROBE_OUTPUT"] = probe?.path
        switch mode {
        case .without: environment["TESTLEDGER_DISABLE"] = "1"
        case .plain: break
        case .underRecord:
            // What `record` hands its child: the run's metadata, and the journal to leave for it.
            environment["TESTLEDGER_JOURNAL_ONLY"] = "1"
            environment["TESTLEDGER_PROJECT"] = "OverheadSuite"
            environment["TESTLEDGER_REVISION"] = "0123abc"
            environment["TESTLEDGER_BRANCH"] = "main"
        }
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let before = CPUTime.ofChildren
        try process.run()
        process.waitUntilExit()
        let seconds = CPUTime.ofChildren - before
        if mode == .underRecord {
            // What `record` stores after the suite is not the suite's cost: drop the journal.
            try? FileManager.default.removeItem(at: URL(fileURLWithPath: ledger.path + ".pending"))
        }
        return seconds
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }

    private static func swift(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift"] + arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    private static func writePackage(at folder: URL, tests: Int, packageRoot: URL) throws {
        let sources = folder.appending(path: "Tests/OverheadTests")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try """
        // swift-tools-version:6.1
        import PackageDescription
        let package = Package(
            name: "OverheadSuite",
            dependencies: [.package(path: "\(packageRoot.path)", traits: [])],
            targets: [.testTarget(name: "OverheadTests", dependencies: [
                .product(name: "TestLedger", package: "\(packageRoot.lastPathComponent)")])]
        )
        """.write(to: folder.appending(path: "Package.swift"), atomically: true, encoding: .utf8)
        try probeSource.write(to: sources.appending(path: "Probe.swift"), atomically: true, encoding: .utf8)
        let perClass = 100
        for index in 0..<(tests + perClass - 1) / perClass {
            let methods = (0..<min(perClass, tests - index * perClass)).map { "    func test\($0)() {}" }
            try
                "import XCTest\n\nfinal class Trivial\(index)Tests: XCTestCase {\n\(methods.joined(separator: "\n"))\n}\n"
                .write(to: sources.appending(path: "Trivial\(index)Tests.swift"), atomically: true, encoding: .utf8)
        }
    }

    private static let probeSource = """
        import Foundation
        import TestLedger
        import XCTest

        /// Writes the median cost of an `eventually` that holds at once.
        final class ZZZProbeTests: XCTestCase {
            func testPredicateCost() throws {
                var costs: [Double] = []
                for _ in 0..<1_000 {
                    let start = DispatchTime.now().uptimeNanoseconds
                    _ = eventually { true }
                    costs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                }
                guard let path = ProcessInfo.processInfo.environment["PROBE_OUTPUT"] else { return }
                try String(costs.sorted()[costs.count / 2]).write(toFile: path, atomically: false, encoding: .utf8)
            }
        }
        """
}
