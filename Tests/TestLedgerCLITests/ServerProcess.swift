import Foundation
import LedgerTestSupport

/// `testledger serve` run as its own process on an ephemeral loopback port.
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let url: String
    /// What the server says on standard output, read as it comes.
    let output: LineWatch
    /// Drains standard error, so the server never blocks writing to it.
    private let errors: PipeDrain

    /// Starts the server on `cli`'s store (or on `database`) and waits until it listens.
    init(_ cli: CLI, _ extra: [String] = [], database: String? = nil) throws {
        process.executableURL = CLI.binary
        process.arguments = ["serve", "--db", database ?? cli.database, "--port", "0"] + extra
        process.currentDirectoryURL = cli.directory.url
        process.environment = ChildProcess.cleanEnvironment()
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        try process.run()
        errors = PipeDrain(errorPipe.fileHandleForReading)
        output = LineWatch(outputPipe.fileHandleForReading)
        guard let line = output.line(containing: "http://"), let range = line.range(of: "http://") else {
            process.terminate()
            throw CocoaError(
                .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "serve did not start: \(output.text)"])
        }
        url = String(line[range.lowerBound...]).trimmingCharacters(in: .whitespacesAndNewlines)
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

/// Reads a pipe to its end on a thread of its own, and lets a test wait for a line.
final class LineWatch: @unchecked Sendable {
    private let condition = NSCondition()
    private var data = Data()
    private var ended = false

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            var chunk: Data
            repeat {
                chunk = handle.availableData
                condition.withLock {
                    data += chunk
                    ended = chunk.isEmpty
                    condition.broadcast()
                }
            } while !chunk.isEmpty
        }
    }

    /// Everything read so far.
    var text: String { condition.withLock { String(decoding: data, as: UTF8.self) } }

    /// Waits until a whole line containing `needle` has been read, and returns it; nil when the
    /// pipe ends without one. Blocks its thread: from a task, call it through `onOwnThread`.
    func line(containing needle: String) -> String? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            if let line = lines.dropLast().first(where: { $0.contains(needle) }) { return String(line) }
            if ended { return nil }
            condition.wait()
        }
    }
}
