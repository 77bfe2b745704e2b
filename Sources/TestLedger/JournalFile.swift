import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file the recorder only appends to, one `write(2)` per call: once it returns, what was
/// written survives a crash of this process.
final class JournalFile {
    let url: URL
    private var descriptor: Int32

    /// Creates (or appends to) the file at `url`.
    /// - Throws: `POSIXError` when it cannot be opened.
    init(_ url: URL) throws {
        self.url = url
        descriptor = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// Appends `bytes`, retrying short and interrupted writes.
    /// - Throws: `POSIXError` when the system refuses the write.
    func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            guard let start = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, start + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                offset += written
            }
        }
    }

    func close() {
        guard descriptor >= 0 else { return }
        closeDescriptor(descriptor)
        descriptor = -1
    }

    deinit { close() }
}

/// The system's `close`, which the method of the same name hides inside the class.
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
