import Foundation

/// The bytes the importers' readers have taken from files so far, in this process: what a
/// progress display reads while an import runs on another thread.
public final class ReadCounter: @unchecked Sendable {
    /// The process's counter.
    public static let shared = ReadCounter()

    private let lock = NSLock()
    private var total = 0

    /// Counts bytes read.
    public func add(_ bytes: Int) {
        lock.lock()
        total += bytes
        lock.unlock()
    }

    /// The bytes read so far.
    public var bytes: Int {
        lock.lock()
        defer { lock.unlock() }
        return total
    }
}
