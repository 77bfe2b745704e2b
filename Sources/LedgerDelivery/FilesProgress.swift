import Foundation
import LedgerCore

/// How much of a list of files is done: the finished files' sizes plus what the readers have
/// taken from the current one (LedgerCore's `ReadCounter`), shown on a terminal as a
/// ``TerminalProgress``.
public final class FilesProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var finished = 0
    private var current = (size: 0, readBefore: 0)
    private var display: TerminalProgress?

    /// Starts showing `label` over `total` bytes, where someone watches.
    public init(_ label: String, totalBytes: Int) {
        display = TerminalProgress.start(ProgressLine(label: label, total: totalBytes, unit: .bytes)) { [weak self] in
            self?.done ?? 0
        }
    }

    /// The bytes done so far.
    public var done: Int {
        lock.withLock {
            finished + min(max(ReadCounter.shared.bytes - current.readBefore, 0), current.size)
        }
    }

    /// A file of `size` bytes begins.
    public func begin(size: Int) {
        lock.withLock { current = (size, ReadCounter.shared.bytes) }
    }

    /// The current file is done, read to its end or not.
    public func end() {
        lock.withLock {
            finished += current.size
            current = (0, ReadCounter.shared.bytes)
        }
    }

    /// Prints a line to standard output without tearing the progress line.
    public func print(_ text: String) {
        guard let display else { return Swift.print(text) }
        display.interrupt { Swift.print(text) }
    }

    /// Prints to standard error without tearing the progress line.
    public func warn(_ text: String) {
        let write = { FileHandle.standardError.write(Data((text + "\n").utf8)) }
        guard let display else { return write() }
        display.interrupt(write)
    }

    /// Stops showing progress.
    public func finish() { display?.finish() }

    /// A file's size in bytes; 0 when it cannot be read.
    public static func size(of path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
