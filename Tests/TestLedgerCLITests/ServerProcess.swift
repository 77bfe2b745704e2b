import Foundation
import LedgerTestSupport

/// `testledger serve` run as its own process on an ephemeral loopback port.
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let url: String
    /// Drains standard error, so the server never blocks writing to it.
    private let errors: PipeDrain
    private var output: PipeDrain?

    /// Starts the server on `cli`'s store (or on `database`) and waits until it listens.
    init(_ cli: CLI, _ extra: [String] = [], database: String? = nil) throws {
        process.executableURL = CLI.binary
        process.arguments = ["serve", "--db", database ?? cli.database, "--port", "0"] + extra
        process.currentDirectoryURL = cli.directory.url
        process.environment = ChildProcess.cleanEnvironment()
        let output = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = output
        process.standardError = errorPipe
        try process.run()
        errors = PipeDrain(errorPipe.fileHandleForReading)
        var announced = Data()
        while !announced.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            announced += chunk
        }
        let line = String(decoding: announced, as: UTF8.self)
        guard let range = line.range(of: "http://") else {
            process.terminate()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "serve did not start: \(line)"])
        }
        url = String(line[range.lowerBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
        self.output = PipeDrain(output.fileHandleForReading)
    }

    /// Sends a signal and waits for the process to end; returns its exit status.
    @discardableResult
    func stop(_ signal: Int32 = SIGTERM) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
