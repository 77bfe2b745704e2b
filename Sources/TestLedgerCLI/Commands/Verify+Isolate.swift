import ArgumentParser
import Foundation
import LedgerCore
import LedgerRecording
import LedgerStore

extension TestLedgerCommand.Verify {
    /// The neighbour to run the test with: `--beside`, else the test the culprit report suspects
    /// (a test whose step or run overlapped, preceded or co-failed); and whether they run one at a time.
    func isolationNeighbour(metadata: RunMetadata, config: ProjectConfiguration, in database: LedgerDatabase) throws
        -> (test: String, arrangement: IsolationReport.Arrangement)
    {
        let culprit = try? database.culpritReport(
            test: test, project: metadata.project, runs: config.reportWindow, since: nil)
        let neighbours = (culprit?.suspects ?? []).filter {
            [.overlappingStep, .overlappingTest, .precedingTest, .coFailure].contains($0.kind)
        }
        let arrangement = { (suspect: CulpritReport.Suspect?) -> IsolationReport.Arrangement in
            suspect?.kind == .precedingTest ? .before : .beside
        }
        if let beside { return (beside, arrangement(neighbours.first { $0.name == beside })) }
        guard let suspect = neighbours.first else {
            throw ValidationError(
                "\(test): the ledger suspects no other test (testledger report culprit \(CommandWords.quoted(test))): "
                    + "name one with --beside TEST")
        }
        return (suspect.name, arrangement(suspect))
    }

    /// `--isolate`: the test alone, then with its neighbour, `--runs` times each.
    func runIsolation(metadata: RunMetadata, config: ProjectConfiguration, in database: LedgerDatabase) throws {
        let neighbour = try isolationNeighbour(metadata: metadata, config: config, in: database)
        let runID = UUID().uuidString.lowercased()
        let folder = FileManager.default.temporaryDirectory.appending(path: "testledger-verify-\(runID)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard case .swiftTest(let invocation) = TestCommand(command, outputFolder: folder) else {
            throw ValidationError("verify --isolate runs swift test: give it after --")
        }
        var start = metadata.runStart(at: Date().timeIntervalSince1970, source: "swift-test")
        start.kind = .verification
        try database.ingest { try $0.consume(LedgerRecord(run: runID, event: .runStart(start))) }
        let recorded = LedgerEnvironment.forRecordedTests(run: runID, databasePath: store.filePath, metadata: metadata)
        let verification = SwiftTestVerification(
            invocation: invocation, tests: [test],
            processes: SwiftTestProcesses(
                run: runID, metadata: metadata,
                environment: ProcessInfo.processInfo.environment.merging(recorded) { _, recorded in recorded },
                databasePath: store.filePath),
            outputFolder: folder)
        let halves: (alone: [Bool], beside: [Bool], problems: [String])
        do {
            halves = try verification.isolate(
                neighbour.test, serial: neighbour.arrangement == .before, runs: runs, in: database)
        } catch let error as RecordUsageError {
            throw ValidationError(error.description)
        }
        let failed = halves.alone.contains(false) || halves.beside.contains(false)
        let end = LedgerEvent.RunEnd(at: Date().timeIntervalSince1970, outcome: failed ? .failed : .passed)
        try database.ingest { try $0.consume(LedgerRecord(run: runID, event: .runEnd(end))) }
        for problem in halves.problems { printError("testledger: \(problem)") }
        let report = IsolationReport(
            test: test, neighbour: neighbour.test, arrangement: neighbour.arrangement, alone: halves.alone,
            beside: halves.beside, run: runID)
        try print(report)
        let status = Self.exitStatus(report.verdict)
        if status != 0 { throw ExitCode(status) }
    }

    private func print(_ report: IsolationReport) throws {
        if let jsonFile {
            try Data(try OutputOptions.json(report).utf8).write(to: URL(fileURLWithPath: jsonFile), options: .atomic)
        }
        switch output.format {
        case .json:
            Swift.print(try OutputOptions.json(report))
        case .table, .markdown:
            Swift.print("\(report.test): \(report.verdict.rawValue): \(report.sentence)")
            Swift.print("  testledger report run \(report.run)")
        }
    }

    static func exitStatus(_ verdict: IsolationReport.Verdict) -> Int32 {
        switch verdict {
        case .needsNeighbour: 0
        case .failsAlone, .notReproduced: 10
        case .inconclusive: 11
        }
    }
}
