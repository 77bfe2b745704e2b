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
    private let timer: DispatchSourceTimer
    private let lock = NSLock()
    private var finished = false
    private var drawn = false

    /// Whether progress would be shown in this environment.
    public static func isWanted(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard environment["TESTLEDGER_PROGRESS"] != "never" else { return false }
        return isatty(STDERR_FILENO) == 1 && environment["TERM"] != "dumb" && (environment["CI"] ?? "").isEmpty
    }

    /// Starts drawing, or returns `nil` where no one watches.
    ///
    /// - Parameters:
    ///   - line: what the line says.
    ///   - read: how much is done now; called on a background queue.
    public static func start(_ line: ProgressLine, read: @escaping @Sendable () -> Int) -> TerminalProgress? {
        guard isWanted() else { return nil }
        return TerminalProgress(line, read: read)
    }

    private init(_ line: ProgressLine, read: @escaping @Sendable () -> Int) {
        self.line = line
        self.read = read
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        // Quick work ends before anything is drawn.
        timer.schedule(deadline: .now() + .milliseconds(300), repeating: .milliseconds(250))
        timer.setEventHandler { [weak self] in self?.draw() }
        timer.resume()
    }

    /// Clears the line so that `body` can print; the next tick draws it again.
    public func interrupt(_ body: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        if drawn, !finished { Self.write("\r\u{1B}[2K") }
        body()
        fflush(nil)
    }

    /// Stops drawing and clears the line.
    public func finish() {
        timer.cancel()
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return }
        finished = true
        if drawn { Self.write("\r\u{1B}[2K") }
    }

    deinit { timer.cancel() }

    private func draw() {
        let text = line.text(done: read(), elapsed: Date().timeIntervalSince(started))
        lock.lock()
        defer { lock.unlock() }
        guard !finished else { return }
        drawn = true
        Self.write("\r\u{1B}[2K" + text)
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
