import Foundation
import LedgerCore
import LedgerDelivery

/// Where the recorder's events go: the local store, or a server.
protocol RecorderDestination: AnyObject, Sendable {
    /// Records events; `running` marks a test's start, written before the rest of it.
    func write(running: Bool, _ events: [LedgerEvent])
    /// Gives the run its end and sends or stores everything recorded so far.
    func endRun(at: Double)
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
