import Demo
import Foundation
import XCTest

final class CleanupPolicyTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_000_000)

    func testRemovesExpiredItems() {
        let policy = CleanupPolicy(maximumBytes: 1_000, maximumAge: 60)
        let old = CacheItem(name: "old", bytes: 1, lastUsed: now.addingTimeInterval(-120))
        let fresh = CacheItem(name: "fresh", bytes: 1, lastUsed: now)
        XCTAssertEqual(policy.itemsToRemove(from: [old, fresh], now: now), [old])
    }

    func testRemovesLeastRecentlyUsedUntilItFits() {
        let policy = CleanupPolicy(maximumBytes: 10, maximumAge: 3_600)
        let items = (0..<4).map { CacheItem(name: "i\($0)", bytes: 4, lastUsed: now.addingTimeInterval(Double(-$0))) }
        XCTAssertEqual(policy.itemsToRemove(from: items, now: now).map(\.name), ["i3", "i2"])
    }

    func testKeepsEverythingWhenItFits() {
        let policy = CleanupPolicy(maximumBytes: 100, maximumAge: 3_600)
        XCTAssertTrue(policy.itemsToRemove(from: [CacheItem(name: "a", bytes: 5, lastUsed: now)], now: now).isEmpty)
    }
}
