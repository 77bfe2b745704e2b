import Foundation
import LedgerCore
import LedgerDelivery

/// Where the recorder's events go: the local store, or a server.
protocol RecorderDestination: AnyObject, Sendable {
    /// Records events; `running` marks a test's start, written before the rest of it.
    func write(running: Bool, _ events: [LedgerEvent])
    /// Gives the run its end and sends or stores everything recorded so far.
    func endRun(at: Double)
    /// Stores or sends what is left as the process exits.
    /// - Returns: the warning to print when recording stopped, else `nil`.
    func finishAtExit() -> String?
}

/// What happens to the recording as the process exits: each kind of destination's newest is
/// finished, and its warning, if any, printed once.
enum RecorderExit {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var finishing: [ObjectIdentifier: any RecorderDestination] = [:]
    private static let registered: Void = { atexit { RecorderExit.finishAll() } }()

    /// Finishes `destination` when the process exits.
    static func finish(_ destination: any RecorderDestination) {
        lock.withLock { finishing[ObjectIdentifier(type(of: destination))] = destination }
        _ = registered
    }

    private static func finishAll() {
        for destination in lock.withLock({ Array(finishing.values) }) {
            if let warning = destination.finishAtExit() {
                FileHandle.standardError.write(Data("testledger: \(warning)\n".utf8))
            }
        }
    }
}

enum RecorderDestinations {
    /// A server when `TESTLEDGER_URL` and `TESTLEDGER_TOKEN` are set, else `TESTLEDGER_DB`; always
    /// the journal under `testledger record` (`TESTLEDGER_JOURNAL_ONLY=1`), which stores it after
    /// the suite: the tests never wait on a server there.
    static func current(environment: LedgerEnvironment = LedgerEnvironment()) -> RecorderDestination {
        if !environment.journalOnly, let url = environment.serverURL, let token = environment.token {
            return RecorderUpload(
                server: url, token: token, environment: environment, policy: environment.resendPolicy())
        }
        return RecorderStore(environment: environment)
    }
}
