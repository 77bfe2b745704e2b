import Hummingbird
import LedgerStore

/// The request context: who is asking (the token's project and scope), when they sent one.
public struct LedgerRequestContext: RequestContext {
    /// The framework's own per-request state.
    public var coreContext: CoreRequestContextStorage
    /// The token presented, when valid.
    public var token: StoredToken?

    /// Creates the context of a new request, with no token yet.
    ///
    /// - Parameter source: where the request came from, as the framework gives it.
    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.token = nil
    }
}
