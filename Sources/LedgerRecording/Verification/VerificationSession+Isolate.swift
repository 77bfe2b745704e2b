import Foundation
import LedgerCore
import LedgerStore

extension VerificationSession {
    /// The neighbour to run `test` with: `beside`, else the test the culprit report suspects over
    /// the configured window (a test whose step or run overlapped, preceded or co-failed); and
    /// whether they run one at a time.
    /// - Throws: ``RecordUsageError`` when none is named and the ledger suspects no other test.
    package func isolationNeighbour(of test: String, beside: String?) throws -> (
        test: String, arrangement: IsolationReport.Arrangement
    ) {
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
            throw RecordUsageError(
                "\(test): the ledger suspects no other test (testledger report culprit \(CommandWords.quoted(test))): "
                    + "name one with --beside TEST")
        }
        return (suspect.name, arrangement(suspect))
    }

    /// `--isolate`: `test` alone, then with its neighbour, `runs` times each, a process each run.
    /// - Throws: ``RecordUsageError`` when the command is not `swift test`, no neighbour is known,
    ///   or the test never ran; what storing throws.
    package func isolate(_ test: String, beside: String?, runs: Int) throws -> IsolationReport {
        let neighbour = try isolationNeighbour(of: test, beside: beside)
        let (run, halves) = try self.run { run in
            guard let invocation = run.command.swiftTest else {
                throw RecordUsageError("verify --isolate runs swift test: give it after --")
            }
            let verification = SwiftTestVerification(
                invocation: invocation, tests: [test],
                processes: SwiftTestProcesses(
                    run: run.id, metadata: metadata, environment: run.environment, databasePath: ledgerFile),
                outputFolder: run.folder)
            return try verification.isolate(
                neighbour.test, serial: neighbour.arrangement == .before, runs: runs, in: database)
        }
        return IsolationReport(
            test: test, neighbour: neighbour.test, arrangement: neighbour.arrangement, alone: halves.alone,
            beside: halves.beside, run: run.id)
    }
}
