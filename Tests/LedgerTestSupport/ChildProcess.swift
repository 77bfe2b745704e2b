import Foundation

/// Runs a program to its end and collects what it printed, without holding one of Swift's
/// cooperative threads: the waiting happens on a thread of its own, so a test that runs a
/// minute-long `swift test` starves no other test of the two threads a small machine has.
public enum ChildProcess {
    /// How a program ended and what it printed.
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        /// From the program's start to its end: without the time spent waiting for a slot.
        public var took: Duration = .zero
    }

    /// Runs `executable` with `arguments`, in `directory`, with `environment` (when `nil`, this
    /// process's without TestLedger's variables), feeding it `stdin`.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, in directory: URL? = nil,
        stdin: Data? = nil
    ) async throws -> Output {
        // The build folder before the slot: a program waiting for a folder holds no slot.
        let folders = BuildFolderLocks.folders(in: arguments)
        await BuildFolderLocks.shared.acquire(folders)
        await slots.acquire()
        do {
            let output = try await runNow(
                executable, arguments, environment: environment ?? inheritedEnvironment(), in: directory, stdin: stdin)
            await slots.release()
            await BuildFolderLocks.shared.release(folders)
            return output
        } catch {
            await slots.release()
            await BuildFolderLocks.shared.release(folders)
            throw error
        }
    }

    /// Runs every command at once, in one of the slots: for a test whose point is that they
    /// overlap (a race), which the slots would otherwise let only a few at a time into.
    /// - Returns: each command's output, in the order given.
    public static func runTogether(
        _ commands: [(executable: URL, arguments: [String])], environment: [String: String]? = nil,
        in directory: URL? = nil
    ) async throws -> [Output] {
        let folders = BuildFolderLocks.folders(in: commands.flatMap(\.arguments))
        await BuildFolderLocks.shared.acquire(folders)
        await slots.acquire()
        do {
            let outputs = try await withThrowingTaskGroup(of: (Int, Output).self, returning: [Output].self) { group in
                for (index, command) in commands.enumerated() {
                    group.addTask {
                        (
                            index,
                            try await runNow(
                                command.executable, command.arguments,
                                environment: environment ?? inheritedEnvironment(), in: directory, stdin: nil)
                        )
                    }
                }
                var outputs = [Output?](repeating: nil, count: commands.count)
                for try await (index, output) in group { outputs[index] = output }
                return outputs.compactMap { $0 }
            }
            await slots.release()
            await BuildFolderLocks.shared.release(folders)
            return outputs
        } catch {
            await slots.release()
            await BuildFolderLocks.shared.release(folders)
            throw error
        }
    }

    /// As many programs run at once as the machine has processors: tests no longer wait on
    /// Swift's cooperative threads, and without a bound a dozen `swift test` and `bacon`
    /// children would share two processors.
    private static let slots = Slots(ProcessInfo.processInfo.activeProcessorCount)

    private static func runNow(
        _ executable: URL, _ arguments: [String], environment: [String: String]?, in directory: URL?, stdin: Data?
    ) async throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        let (output, errors, input) = (Pipe(), Pipe(), Pipe())
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input
        let clock = ContinuousClock()
        let started = clock.now
        try process.run()
        return try await onOwnThread {
            let feeding = Thread {
                if let stdin { input.fileHandleForWriting.write(stdin) }
                try? input.fileHandleForWriting.close()
            }
            feeding.start()
            let errorText = PipeDrain(errors.fileHandleForReading)
            let text = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Output(
                status: process.terminationStatus, stdout: String(decoding: text, as: UTF8.self),
                stderr: String(decoding: errorText.wait(), as: UTF8.self), took: clock.now - started)
        }
    }

    /// Runs a program found on the path (`swift`, `git`, `bacon`…) with ``cleanEnvironment()``
    /// and `environment` over it.
    public static func runTool(
        _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil, stdin: Data? = nil
    ) async throws -> Output {
        try await run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments,
            environment: cleanEnvironment().merging(environment) { _, given in given }, in: directory, stdin: stdin)
    }

    /// This process's environment without TestLedger's variables: a child of a suite that
    /// `testledger record` runs is not one of its tests, and must not join its run.
    public static func inheritedEnvironment() -> [String: String] {
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("TESTLEDGER_") }
    }

    /// This process's environment without TestLedger's variables or a CI's, so that a child
    /// sees only what a test gives it.
    public static func cleanEnvironment() -> [String: String] {
        ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("TESTLEDGER_") && !ciVariables.contains($0.key) }
    }

    /// The variables by which a CI is recognised.
    public static let ciVariables: Set<String> = [
        "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "CIRCLECI", "JENKINS_URL", "BITRISE_IO", "CI_XCODEBUILD_ACTION",
        "CI_BUILD_ID",
    ]
}

/// Reads a pipe to its end on a thread of its own, so that two pipes drain at once.
public final class PipeDrain: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    public init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Everything read, once the pipe's writers have all closed it.
    public func wait() -> Data {
        done.wait()
        return data
    }
}

/// A count of places that tasks wait for without holding a thread.
actor Slots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) {
        free = max(1, count)
    }

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
