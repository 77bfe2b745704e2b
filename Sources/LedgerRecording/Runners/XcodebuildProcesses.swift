import Foundation
import LedgerCore
import LedgerStore

/// The `xcodebuild` processes `record` and `verify` start, and the one `record` ran: what the
/// library in the tests journaled and the process's result bundle are stored in one run, the
/// bundle's tests as their next attempts.
package struct XcodebuildProcesses {
    package var run: String
    package var metadata: RunMetadata
    /// The command's environment: each process's is the same, with its attempt offset.
    package var environment: [String: String]
    package var databasePath: String

    package init(run: String, metadata: RunMetadata, environment: [String: String], databasePath: String) {
        (self.run, self.metadata, self.environment, self.databasePath) = (run, metadata, environment, databasePath)
    }

    /// Runs `arguments`, in which each test had `attemptOffset` attempts before, and stores what
    /// it wrote: the journals, and the result bundle at `bundle`.
    /// - Returns: the process's exit status, and problems storing its outputs, each naming its file.
    /// - Throws: what starting the process throws.
    package func run(_ arguments: [String], bundle: String, attemptOffset: Int = 0, in database: LedgerDatabase)
        throws -> (status: Int32, problems: [String])
    {
        var variables = environment
        if attemptOffset > 0 {
            variables.merge(
                XcodebuildInvocation.testRunnerEnvironment([
                    LedgerEnvironment.attemptOffsetVariable: String(attemptOffset)
                ])
            ) { _, offset in offset }
        }
        let status = try ChildProcess(arguments: arguments, environment: variables).run { _ in }
        return (status, store(bundle: bundle, status: status, attemptOffset: attemptOffset, in: database))
    }

    /// Stores what a process that ended with `status` wrote: the journals, and the result bundle
    /// at `bundle`, also after a failure or an interrupt.
    /// - Returns: what could not be stored, or that xcodebuild wrote no bundle.
    package func store(bundle: String, status: Int32, attemptOffset: Int = 0, in database: LedgerDatabase)
        -> [String]
    {
        database.recoverPendingJournals(databasePath: databasePath)
        guard XCResultBundle.isBundle(bundle) else {
            let problem = LedgerInputError(
                source: bundle, problem: "xcodebuild wrote no result bundle (it exited with \(status))",
                fix: "check that the scheme builds and has tests")
            return [problem.description]
        }
        do {
            _ = try Ingestion.ingest(
                XCResultBundle(path: bundle), metadata: metadata, runID: run, interrupted: status >= 128,
                attemptOffset: attemptOffset, into: database)
            return []
        } catch {
            return ["\(error)"]
        }
    }
}
