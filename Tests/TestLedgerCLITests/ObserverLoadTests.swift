import Foundation
import LedgerTestSupport
import Testing

extension ObserverTests {
    /// Busy processes beside the fixture's tests, until stopped: the contention a shared CI machine
    /// brings.
    struct Contention {
        private let processes: [Process]

        init(processes count: Int) throws {
            processes = try (0..<count).map { _ in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                // Bounded (a minute or so), should the test be killed before it stops them; killed
                // rather than terminated, for a test process may pass SIGTERM on ignored.
                process.arguments = ["-c", "i=0; while [ $i -lt 500000000 ]; do i=$((i + 1)); done"]
                try process.run()
                return process
            }
        }

        /// Ends them, and waits until they have ended.
        func stop() async throws {
            for process in processes { kill(process.processIdentifier, SIGKILL) }
            while processes.contains(where: \.isRunning) { try await Task.sleep(for: .milliseconds(10)) }
        }
    }

    /// Thirty serial runs of a timing check, every third beside four busy processes per core: the
    /// observer's load and CPU time name the machine's load as the cause.
    @Test func aStarvedTimingCheckIsBlamedOnTheLoad() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let test = "ObservedTests.ContendedTests/testCrunchesWithinItsBudget"
        _ = try await swiftTest(cli, ["--filter", "ContendedTests"], environment: ["TESTLEDGER_DISABLE": "1"])
        let busy = 4 * ProcessInfo.processInfo.activeProcessorCount
        for number in 1...30 {
            let contention = try Contention(processes: number % 3 == 0 ? busy : 0)
            _ = try await swiftTest(cli, ["--skip-build", "--filter", "ContendedTests"])
            try await contention.stop()
        }
        let stored = try await ConcurrentCreationTests.query(
            cli.database, "SELECT COUNT(*), COUNT(process), COUNT(load), COUNT(cpu), MIN(cpu) > 0 FROM result")
        #expect(stored == ["30|30|30|30|1"], "the observer stamps every attempt")
        // The runs in order, every third of them starved: most of those fail, more than the others.
        let outcomes = try await ConcurrentCreationTests.query(
            cli.database, "SELECT result.outcome FROM result JOIN run ON run.id = result.runId ORDER BY run.startedAt")
        let starved = outcomes.enumerated().filter { ($0.offset + 1) % 3 == 0 }.map(\.element)
        let others = outcomes.enumerated().filter { ($0.offset + 1) % 3 != 0 }.map(\.element)
        let (starvedFailed, othersFailed) = (starved.count { $0 == "failed" }, others.count { $0 == "failed" })
        #expect(
            starvedFailed >= 5 && Double(starvedFailed) / 10 > Double(othersFailed) / 20,
            "\(starvedFailed) of 10 starved runs failed, \(othersFailed) of 20 others")
        let culprit = try #require(try await cli.json(["report", "culprit", test]) as? [String: Any])
        #expect(culprit["failingAttempts"] as? Int == starvedFailed + othersFailed)
        let suspect = try #require((culprit["suspects"] as? [[String: Any]])?.first, "\(culprit)")
        #expect(suspect["kind"] as? String == "load", "\(culprit)")
        #expect(suspect["name"] as? String == "wall time / CPU time")
    }

    /// `verify --stress`: busy threads beside the tests starve the timing check, so the failure
    /// it shows only under load is reproduced (on an idle machine it passes every run).
    @Test func stressReproducesAFailureThatNeedsLoad() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let test = "ObservedTests.ContendedTests/testCrunchesWithinItsBudget"
        let busy = 4 * ProcessInfo.processInfo.activeProcessorCount
        let output = try await cli.run([
            "verify", test, "--rate", "0.5", "--reproduce", "--stress", String(busy), "--format", "json", "--",
            "swift", "test", "--package-path", Self.fixture, "--scratch-path", CLI.scratchPath(for: "ObservedSuite"),
        ])
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any],
            "\(output.stdout) \(output.stderr.suffix(2_000))")
        #expect(report["verdict"] as? String == "reproduced", "\(report)")
        #expect(output.stderr.contains("testledger: verify: \(busy) busy threads run beside the tests"))
    }
}
