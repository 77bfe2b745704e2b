import Demo
import Foundation
import XCTest

/// A screen object standing in for a checkout screen whose total updates asynchronously.
final class CheckoutScreen: @unchecked Sendable {
    private let lock = NSLock()
    private var shownTotal = 0

    func tapAdd(price: Int) {
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { [self] in
            lock.withLock { shownTotal += price }
        }
    }

    var total: Int { lock.withLock { shownTotal } }
}

final class CheckoutUITests: XCTestCase {
    func testTotalUpdatesAfterAddingAnItem() {
        let screen = CheckoutScreen()
        screen.tapAdd(price: 450)
        let shown = expectation(description: "total shown")
        DispatchQueue.global().async {
            while screen.total != 450 { Thread.sleep(forTimeInterval: 0.01) }
            shown.fulfill()
        }
        wait(for: [shown], timeout: 2)
        XCTAssertEqual(screen.total, 450)
    }
}
