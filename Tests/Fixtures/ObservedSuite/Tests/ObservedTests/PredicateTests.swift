import Foundation
import TestLedger
import XCTest

/// A screen object whose spinner stops a moment after it appears.
final class LoadingScreen: @unchecked Sendable {
    private let shownAt = Date()
    var isSpinning: Bool { Date().timeIntervalSince(shownAt) < 0.08 }
}

final class PredicateTests: XCTestCase {
    func testHoldsLate() {
        let start = Date()
        XCTAssertTrue(eventually("loaded", timeout: 1, interval: 0.01) { Date().timeIntervalSince(start) > 0.05 })
    }

    func testDoesntHoldWaitsForTheSpinnerToStop() {
        let screen = LoadingScreen()
        let spinning = UIPredicate("spinner shown") { screen.isSpinning }
        XCTAssertTrue(spinning.holds())
        XCTAssertTrue(spinning.doesntHold(timeout: 1))
        XCTAssertTrue(spinning.negation.holds())
    }

    func testTimesOut() {
        XCTAssertFalse(eventually("never true", timeout: 0.1, interval: 0.02) { false })
    }
}
