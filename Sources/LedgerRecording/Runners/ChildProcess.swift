import Foundation

/// Runs a command with its output passed through line by line, and tells each line to a handler.
package struct ChildProcess {
    package var arguments: [String]
    package var environment: [String: String]

    package init(arguments: [String], environment: [String: String]) {
        self.arguments = arguments
        self.environment = environment
    }

    /// Runs to completion; `onStart` learns the child's process id, `onLine` sees every complete
    /// line of standard output and error.
    /// Interrupts (Ctrl-C) reach the child; this process waits for it so that what ran is stored.
    /// - Returns: the command's exit status (128 + signal when a signal ended it).
    package func run(
        onStart: (Int32) -> Void = { _ in }, onLine: @escaping @Sendable (Substring) -> Void
    ) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let group = DispatchGroup()
        for (pipe, destination) in [(output, FileHandle.standardOutput), (errors, FileHandle.standardError)] {
            group.enter()
            Thread.detachNewThread {
                Self.pump(pipe.fileHandleForReading, to: destination, onLine: onLine)
                group.leave()
            }
        }
        // A handler rather than SIG_IGN: an ignored signal stays ignored in the child, a handled one
        // is reset by exec, so Ctrl-C still stops the command while this process lives on.
        signal(SIGINT) { _ in }
        defer { signal(SIGINT, SIG_DFL) }
        do {
            try process.run()
        } catch {
            throw StartFailure(command: arguments, reason: "\(error.localizedDescription)")
        }
        onStart(process.processIdentifier)
        process.waitUntilExit()
        group.wait()
        if process.terminationReason == .uncaughtSignal { return 128 + process.terminationStatus }
        return process.terminationStatus
    }

    /// A command that could not be started.
    package struct StartFailure: Error, CustomStringConvertible {
        package let command: [String]
        package let reason: String

        package var description: String {
            // Foundation lists the descriptors to close in the child from /proc/self/fd.
            #if os(Linux)
                let withoutProc = !FileManager.default.fileExists(atPath: "/proc/self/fd")
            #else
                let withoutProc = false
            #endif
            return "cannot start \(command.joined(separator: " ")): \(reason)"
                + (withoutProc
                    ? "; /proc is not mounted, and starting a command needs it: mount -t proc proc /proc" : "")
        }
    }

    private static func pump(_ source: FileHandle, to destination: FileHandle, onLine: (Substring) -> Void) {
        var pending = Data()
        while let chunk = try? source.read(upToCount: 64 << 10), !chunk.isEmpty {
            destination.write(chunk)
            pending.append(chunk)
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                onLine(Substring(line))
                pending.removeSubrange(pending.startIndex...newline)
            }
        }
        if !pending.isEmpty { onLine(Substring(String(decoding: pending, as: UTF8.self))) }
    }
}
