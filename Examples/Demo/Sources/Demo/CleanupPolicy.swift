import Foundation

/// A cached item: its name, size and when it was last used.
public struct CacheItem: Equatable, Sendable {
    public var name: String
    public var bytes: Int
    public var lastUsed: Date

    public init(name: String, bytes: Int, lastUsed: Date) {
        self.name = name
        self.bytes = bytes
        self.lastUsed = lastUsed
    }
}

/// Decides which cache items to remove, apart from the effect of removing them.
public struct CleanupPolicy: Sendable {
    public var maximumBytes: Int
    public var maximumAge: TimeInterval

    public init(maximumBytes: Int, maximumAge: TimeInterval) {
        self.maximumBytes = maximumBytes
        self.maximumAge = maximumAge
    }

    /// The items to remove: everything too old, then the least recently used until the rest fits.
    public func itemsToRemove(from items: [CacheItem], now: Date) -> [CacheItem] {
        let expired = items.filter { now.timeIntervalSince($0.lastUsed) > maximumAge }
        var kept = items.filter { !expired.contains($0) }.sorted { $0.lastUsed > $1.lastUsed }
        var removed = expired
        while kept.reduce(0, { $0 + $1.bytes }) > maximumBytes, let oldest = kept.popLast() {
            removed.append(oldest)
        }
        return removed
    }
}
