import Foundation

/// The thin effectful side of the cache: files in a folder, cleaned by a ``CleanupPolicy``.
public struct OnDiskCache {
    public let folder: URL
    public let policy: CleanupPolicy

    public init(folder: URL, policy: CleanupPolicy) {
        self.folder = folder
        self.policy = policy
    }

    public func store(_ data: Data, named name: String) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try data.write(to: folder.appendingPathComponent(name))
    }

    public func items() throws -> [CacheItem] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).map { url in
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            return CacheItem(
                name: url.lastPathComponent, bytes: (attributes[.size] as? Int) ?? 0,
                lastUsed: (attributes[.modificationDate] as? Date) ?? .distantPast)
        }
    }

    /// Removes what the policy says; returns the names removed.
    @discardableResult
    public func clean(now: Date = Date()) throws -> [String] {
        let doomed = policy.itemsToRemove(from: try items(), now: now)
        for item in doomed {
            try FileManager.default.removeItem(at: folder.appendingPathComponent(item.name))
        }
        return doomed.map(\.name).sorted()
    }
}
