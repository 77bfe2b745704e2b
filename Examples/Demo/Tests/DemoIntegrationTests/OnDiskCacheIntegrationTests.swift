import Demo
import Foundation
import TestLedger
import XCTest

final class OnDiskCacheIntegrationTests: XCTestCase {
    func testCleanRemovesFilesThePolicyChooses() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = OnDiskCache(folder: folder, policy: CleanupPolicy(maximumBytes: 8, maximumAge: 3_600))
        try TestLedger.activity("Store three files") {
            for name in ["a", "b", "c"] {
                try cache.store(Data(repeating: 1, count: 4), named: name)
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        XCTAssertEqual(try TestLedger.activity("Clean up") { try cache.clean() }, ["a"])
        XCTAssertEqual(try cache.items().map(\.name).sorted(), ["b", "c"])
    }
}
