import TestLedger
import XCTest

final class CheckoutUITests: XCTestCase, LayeredTest {
    static var ledgerLayer: Layer { .ui }

    func testPays() {
        XCTAssertTrue(true)
    }
}

final class SyncIntegrationTests: XCTestCase {
    func testSyncs() {
        XCTAssertTrue(true)
    }
}
