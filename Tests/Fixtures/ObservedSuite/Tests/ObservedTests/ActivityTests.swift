import Foundation
import TestLedger
import XCTest

final class ActivityTests: XCTestCase {
    func testNestedActivitiesWithCaptures() throws {
        let total = try TestLedger.activity("Open the cart") {
            try TestLedger.activity("Add two items") {
                TestLedger.activity("Confirm the alert") {
                    TestLedger.capture(
                        AlertCapture(
                            title: "Remove item?", message: "It will leave your cart.", preferredStyle: .actionSheet,
                            actions: [
                                .init(title: "Remove", style: .destructive), .init(title: "Keep", style: .cancel),
                            ],
                            animated: true, presentingController: "CartViewController", presentedCount: 1))
                }
                return try XCTUnwrap(Int("42"))
            }
        }
        XCTAssertEqual(total, 42)
        TestLedger.capture(
            PresentationCapture(
                presentedController: "CheckoutViewController", animated: false,
                presentingController: "CartViewController"))
        TestLedger.capture(DismissalCapture(dismissedController: "CheckoutViewController", animated: true))
        TestLedger.capture(
            verifier: "FakeUserDefaults",
            fields: ["lastSetKey": "volume", "hasSynchronised": true, "values": ["volume": 7, "muted": false]])
    }

    func testAFailureMarksItsActivities() {
        TestLedger.activity("Outer") {
            TestLedger.activity("Inner") {
                XCTAssertTrue(false, "inner check")
            }
        }
        TestLedger.activity("After") {}
    }

    func testAsyncActivityReturnsItsValue() async throws {
        let value = await TestLedger.activity("Load") { () async -> Int in
            try? await Task.sleep(nanoseconds: 1_000_000)
            return 7
        }
        XCTAssertEqual(value, 7)
    }
}
