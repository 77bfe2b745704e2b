import LedgerCore
import LedgerDelivery
import LedgerStore

/// How `testledger serve` listens and what it accepts.
public struct ServerConfiguration: Sendable {
    /// The address to listen on: a host name or an IP address.
    public var host: String
    /// The TCP port to listen on; 0 picks a free one.
    public var port: Int
    /// The largest request body accepted, after decompression (default 64 MiB).
    public var maximumBodyBytes: Int
    /// Lets anyone read, without a token.
    public var publicRead: Bool
    /// The automatic quarantine applied after each upload (off by default).
    public var quarantine = QuarantinePolicy()
    /// The flaky thresholds the automatic quarantine judges by.
    public var thresholds = FlakyThresholds()
    /// How many of a project's newest runs the automatic quarantine and a run's report judge by.
    public var window = ReportWindow.defaultRuns
    /// The address people reach the server at (`https://ledger.example`), when a proxy puts it
    /// elsewhere; an `https` one marks the dashboard's cookie `Secure`.
    public var publicURL: String?
    /// Seconds a dashboard sign-in lasts.
    public var sessionLifetime: Double = 12 * 3_600
    /// Where each stored run goes as an OpenTelemetry trace once it has ended; `nil` sends none.
    public var traces: TraceExporter?
    /// Where the team is told of what uploads change; `nil` tells no one.
    public var notifications: NotificationDelivery?
    /// How fixes `verify` recorded in this ledger are followed onto the default branch by
    /// uploads (by revision: the server has no checkout); `nil` leaves them as they are.
    public var fixLanding: FixLanding?

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - host: the address to listen on; this machine only by default.
    ///   - port: the TCP port, 8080 by default; 0 picks a free one.
    ///   - maximumBodyBytes: the largest request body accepted, after decompression.
    ///   - publicRead: whether anyone may read without a token.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, maximumBodyBytes: Int = 64 << 20, publicRead: Bool = false
    ) {
        self.host = host
        self.port = port
        self.maximumBodyBytes = maximumBodyBytes
        self.publicRead = publicRead
    }

    /// Whether the server listens on this machine only: `localhost`, `::1` or an address that starts
    /// with `127.`.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

/// Why the server will not start.
public enum ServerError: Error, CustomStringConvertible, Equatable {
    /// The server would listen on `host`, which is not loopback, while no live access token exists.
    case openWithoutTokens(host: String)

    /// Why the server will not start and how to fix it, in one message for people.
    public var description: String {
        switch self {
        case .openWithoutTokens(let host):
            "refusing to serve on \(host) without any access token: anyone could send or read results. "
                + "Create one with `testledger token create --project P --scope write`, or serve on 127.0.0.1."
        }
    }
}
