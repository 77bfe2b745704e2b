/// How `testledger serve` listens and what it accepts.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// The largest request body accepted, after decompression (default 64 MiB).
    public var maximumBodyBytes: Int
    /// Lets anyone read, without a token.
    public var publicRead: Bool

    public init(
        host: String = "127.0.0.1", port: Int = 8080, maximumBodyBytes: Int = 64 << 20, publicRead: Bool = false
    ) {
        self.host = host
        self.port = port
        self.maximumBodyBytes = maximumBodyBytes
        self.publicRead = publicRead
    }

    /// Whether the server listens on this machine only.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

/// Why the server will not start.
public enum ServerError: Error, CustomStringConvertible, Equatable {
    case openWithoutTokens(host: String)

    public var description: String {
        switch self {
        case .openWithoutTokens(let host):
            "refusing to serve on \(host) without any access token: anyone could send or read results. "
                + "Create one with `testledger token create --project P --scope write`, or serve on 127.0.0.1."
        }
    }
}
