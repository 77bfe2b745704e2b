import Foundation
import Testing

/// The cart every test shares, as an app's singleton would be.
final class Cart: @unchecked Sendable {
    static let shared = Cart()
    private let lock = NSLock()
    private var items: [String] = []

    func add(_ item: String) { lock.withLock { items.append(item) } }
    func remove(_ item: String) { lock.withLock { items.removeAll { $0 == item } } }
    func clear() { lock.withLock { items.removeAll() } }
    func contains(_ item: String) -> Bool { lock.withLock { items.contains(item) } }
}

/// Swift Testing runs these side by side. `keepsWhatWasAdded` fails when `clearsCart` ends while
/// it waits (two runs in three), and only then; the other two end at random moments and harm
/// nothing.
@Suite struct CartTests {
    @Test func keepsWhatWasAdded() async throws {
        Cart.shared.add("apple")
        defer { Cart.shared.remove("apple") }
        try await Task.sleep(for: .milliseconds(60))
        #expect(Cart.shared.contains("apple"), "the apple left the cart")
    }

    @Test func clearsCart() async throws {
        try await Task.sleep(for: .milliseconds(Int.random(in: 0...90)))
        Cart.shared.clear()
    }

    @Test func countsItems() async throws {
        try await Task.sleep(for: .milliseconds(Int.random(in: 0...120)))
        #expect(2 + 2 == 4)
    }

    @Test func pricesItems() async throws {
        try await Task.sleep(for: .milliseconds(Int.random(in: 0...120)))
        #expect(3 * 4 == 12)
    }
}
