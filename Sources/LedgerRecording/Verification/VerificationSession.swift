import Foundation
import LedgerCore
import LedgerStore

/// `testledger verify`: runs named tests again and again in one run of kind `verification`, to
/// prove a flaky test's fix, to reproduce its failure, or (`--isolate`) to compare it alone and
/// beside another test. Every run is an attempt of that run, kept in each test's history and left
/// out of the reports.
package struct VerificationSession {
    /// The test command, as given after `--`.
    package let command: [String]
    package let config: ProjectConfiguration
    package let metadata: RunMetadata
    /// The ledger file the run is stored in, which the tests' processes journal beside.
    package let ledgerFile: String
    package let database: LedgerDatabase

    package init(
        command: [String], config: ProjectConfiguration, metadata: RunMetadata, ledgerFile: String,
        database: LedgerDatabase
    ) {
        (self.command, self.config, self.metadata) = (command, config, metadata)
        (self.ledgerFile, self.database) = (ledgerFile, database)
    }

    /// One verification run as it goes.
    package struct Run {
        package let id: String
        /// Where its processes write their outputs; removed once the run ends.
        package let folder: URL
        package let command: TestCommand
        /// The command's environment: this process's, with what the tests read of the run.
        package let environment: [String: String]
        package let started: Double
    }

    /// Starts a run of kind `verification`, lets `body` run the tests in it, and ends the run,
    /// failed when a test failed in it; what `body` could not store is said on standard error.
    /// - Returns: the run, and what `body` found.
    /// - Throws: what `body` throws (the run is then left without an end), and what storing throws.
    package func run<Findings: VerificationFindings>(_ body: (Run) throws -> Findings) throws -> (
        run: Run, findings: Findings
    ) {
        let id = UUID().uuidString.lowercased()
        let folder = FileManager.default.temporaryDirectory.appending(path: "testledger-verify-\(id)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = Date().timeIntervalSince1970
        let testCommand = TestCommand(command, outputFolder: folder)
        var start = metadata.runStart(at: started, source: testCommand.source)
        start.kind = .verification
        try database.ingest { try $0.consume(LedgerRecord(run: id, event: .runStart(start))) }
        let recorded = LedgerEnvironment.forRecordedTests(run: id, databasePath: ledgerFile, metadata: metadata)
        let run = Run(
            id: id, folder: folder, command: testCommand, environment: try testCommand.environment(recorded: recorded),
            started: started)
        let findings = try body(run)
        let end = LedgerEvent.RunEnd(
            at: Date().timeIntervalSince1970, outcome: findings.someRunFailed ? .failed : .passed)
        try database.ingest { try $0.consume(LedgerRecord(run: id, event: .runEnd(end))) }
        for problem in findings.problems { printError("testledger: \(problem)") }
        return (run, findings)
    }
}

extension VerificationSession {
    /// Names each test's verdict on its verification run, in the labels
    /// ``VerificationReport/verdictLabel(of:)`` names: by one more `run.start` of the run, whose
    /// labels fill the run's, as each process that joins a run adds what it knows.
    func label(_ run: Run, verdicts: [String: String]) throws {
        var start = metadata.runStart(at: run.started, source: run.command.source)
        start.kind = .verification
        start.labels = (start.labels ?? [:]).merging(
            verdicts.map { (VerificationReport.verdictLabel(of: $0.key), $0.value) }, uniquingKeysWith: { $1 })
        try database.ingest { try $0.consume(LedgerRecord(run: run.id, event: .runStart(start))) }
    }
}

/// What a verification run's processes found, as far as the run's end needs it.
package protocol VerificationFindings {
    /// Whether a test failed in any run.
    var someRunFailed: Bool { get }
    /// Problems storing what the runner wrote, each naming its file.
    var problems: [String] { get }
}

extension VerificationOutcome: VerificationFindings {
    package var someRunFailed: Bool { passes.values.contains { $0.contains(false) } }
}
