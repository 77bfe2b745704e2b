import Hummingbird
import LedgerStore

/// The request context: who is asking (the token's project and scope), when they sent one.
public struct LedgerRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The token presented, when valid.
    public var token: StoredToken?

    public init(source: Source) {
        self.coreContext = .init(source: source)
        self.token = nil
    }
}
