import Demo
import Foundation
import Testing

@Suite struct CacheRoundTripIntegrationTests {
    @Test func storedItemsAreListedWithTheirSizes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = OnDiskCache(folder: folder, policy: CleanupPolicy(maximumBytes: 100, maximumAge: 60))
        try cache.store(Data(repeating: 0, count: 12), named: "x")
        #expect(try cache.items().map(\.bytes) == [12])
    }
}
