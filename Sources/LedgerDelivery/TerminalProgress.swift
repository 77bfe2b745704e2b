import Foundation
import LedgerCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A LedgerCore `ProgressLine` redrawn in place on standard error a few times a second, only
/// where a person watches: standard error is a terminal, `TERM` is not `dumb`, and no CI is named
/// (`CI`); `TESTLEDGER_PROGRESS=never` turns it off anywhere.
public final class TerminalProgress: @unchecked Sendable {
    private let line: ProgressLine
    private let read: @Sendable () -> Int
    private let started = Date()
    private var timer: DispatchSourceTimer?
    private let write: @Sendable (String) -> Void
    private let lock = NSLock()
    private var finished = false
    private var drawn = false

    /// Whether progress would be shown in this environment.
    /// - Parameters:
    ///   - environment: the process's variables.
    ///   - isTerminal: whether standard error is a terminal.
    /// - Returns: `true` on a terminal that is not `dumb`, outside CI, unless `TESTLEDGER_PROGRESS=never`.
    public static func isWanted(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        isTerminal: Bool = isatty(STDERR_FILENO) == 1
    ) -> Bool {
        guard environment["TESTLEDGER_PROGRESS"] != "never" else { return false }
        return isTerminal && environment["TERM"] != "dumb" && (environment["CI"] ?? "").isEmpty
    }

    /// Starts drawing, or returns `nil` where no one watches. The first draw comes after
    /// `TESTLEDGER_PROGRESS_DELAY` seconds (0.3 when unset), so that quick work draws nothing; at
    /// 0 it comes at once.
    ///
    /// - Parameters:
    ///   - line: what the line says.
    ///   - read: how much is done now; called on a background queue.
    /// - Returns: the progress drawing, to finish when the work is done; `nil` when progress is not
    ///   wanted here (see ``isWanted(environment:)``).
    public static func start(_ line: ProgressLine, read: @escaping @Sendable () -> Int) -> TerminalProgress? {
        let environment = ProcessInfo.processInfo.environment
        guard isWanted(environment: environment) else { return nil }
        let delay = environment["TESTLEDGER_PROGRESS_DELAY"].flatMap(Double.init) ?? 0.3
        let progress = TerminalProgress(line, read: read, write: Self.write)
        progress.schedule(firstDrawAfter: delay)
        return progress
    }

    /// A line that draws only when ``draw()`` is called.
    init(_ line: ProgressLine, read: @escaping @Sendable () -> Int, write: @escaping @Sendable (String) -> Void) {
        self.line = line
        self.read = read
        self.write = write
    }

    private func schedule(firstDrawAfter delay: Double) {
        if delay <= 0 { draw() }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + max(delay, 0.25), repeating: .milliseconds(250))
        timer.setEventHandler { [weak self] in self?.draw() }
        timer.resume()
        self.timer = timer
    }

    /// Clears the line so that `body` can print; the next tick draws it again.
    public func interrupt(_ body: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        if drawn, !finished { write("\r\u{1B}[2K") }
        body()
        fflush(nil)
    }

    /// Stops drawing and clears the line.
    public func finish() {
        timer?.cancel()
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return }
        finished = true
        if drawn { write("\r\u{1B}[2K") }
    }

    deinit { timer?.cancel() }

    /// Draws the line now, unless finished.
    func draw() {
        let text = line.text(done: read(), elapsed: Date().timeIntervalSince(started))
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return }
        drawn = true
        write("\r\u{1B}[2K" + text)
    }

    @Sendable private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
