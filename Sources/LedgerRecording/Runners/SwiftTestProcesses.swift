import Foundation
import LedgerCore
import LedgerStore

/// The `swift test` processes `record` and `verify` start after (or instead of) the command:
/// each runs some tests as their next attempts of one run, and its outputs are stored in it.
package struct SwiftTestProcesses {
    package var run: String
    package var metadata: RunMetadata
    /// The command's environment: each process's is the same, with its attempt offset.
    package var environment: [String: String]
    package var databasePath: String

    package init(run: String, metadata: RunMetadata, environment: [String: String], databasePath: String) {
        (self.run, self.metadata, self.environment, self.databasePath) = (run, metadata, environment, databasePath)
    }

    /// Runs `arguments` (of `invocation`, whose folder is created), in which `tests` each had
    /// `attemptOffset` attempts before, and stores what it wrote.
    /// - Returns: the process's exit status, and problems storing its outputs, each naming its file.
    /// - Throws: what starting the process or storing its outputs throws.
    package func run(
        _ invocation: SwiftTestInvocation, arguments: [String], tests: [String], attemptOffset: Int,
        in database: LedgerDatabase
    ) throws -> (status: Int32, problems: [String]) {
        try FileManager.default.createDirectory(at: invocation.outputFolder, withIntermediateDirectories: true)
        var variables = environment
        variables[LedgerEnvironment.attemptOffsetVariable] = String(attemptOffset)
        let console = ConsoleCollector()
        let status = try ChildProcess(arguments: arguments, environment: variables).run(
            onStart: console.started, onLine: console.consume)
        console.sampleLoad()
        let outputs = SwiftTestOutputs(
            invocation: invocation, console: console, run: run, metadata: metadata,
            attemptOffset: attemptOffset)
        let problems = try outputs.store(in: database, databasePath: databasePath) {
            SwiftTestInvocation.consoleNames(of: tests)
        }
        return (status, problems)
    }
}
