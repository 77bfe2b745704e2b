import GRDB

extension StoreError {
    /// Runs `body`, turning SQLite's "cannot write here" errors into ``cannotWrite(path:reason:)``
    /// naming `path`.
    static func naming<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            let reason: String
            switch error.resultCode {
            case .SQLITE_FULL: reason = "the disk is full (or a file size limit was reached)"
            case .SQLITE_READONLY: reason = "it is read-only"
            case .SQLITE_CANTOPEN: reason = "it cannot be opened (is its folder read-only?)"
            case .SQLITE_IOERR: reason = "the file system failed (\(error.message ?? "I/O error"))"
            case .SQLITE_PERM, .SQLITE_AUTH: reason = "permission denied"
            default: throw error
            }
            throw StoreError.cannotWrite(path: path, reason: reason)
        }
    }
}
