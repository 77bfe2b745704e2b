import Cart
import Foundation
import XCTest

final class CartTests: XCTestCase {
    func testTotalAddsThePrices() {
        var cart = Cart()
        cart.add(250)
        cart.add(100)
        XCTAssertEqual(cart.total, 350)
    }

    func testANewCartIsEmpty() {
        XCTAssertTrue(Cart().isEmpty)
    }

    /// With `SELECTED_SUITE_KILL` set, the test process is killed here, as a CI step's timeout kills it.
    func testCheckoutCompletes() {
        if ProcessInfo.processInfo.environment["SELECTED_SUITE_KILL"] != nil { kill(getpid(), SIGKILL) }
        var cart = Cart()
        cart.add(1)
        XCTAssertFalse(cart.isEmpty)
    }
}
