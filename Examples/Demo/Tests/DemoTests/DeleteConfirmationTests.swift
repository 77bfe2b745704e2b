import Demo
import TestLedger
import XCTest

final class DeleteConfirmationTests: XCTestCase {
    func testAsksBeforeDeleting() {
        let spy = AlertSpy()
        DeleteConfirmation(presenter: spy).askToDelete("Budget.numbers")
        XCTAssertEqual(spy.presentedCount, 1)
        XCTAssertEqual(spy.title, "Delete “Budget.numbers”?")
        XCTAssertEqual(spy.buttons.map(\.title), ["Cancel", "Delete"])
    }

    func testDeletesOnlyWhenConfirmed() {
        let spy = AlertSpy()
        let confirmation = DeleteConfirmation(presenter: spy)
        TestLedger.activity("Tap Cancel") {
            confirmation.askToDelete("Notes.txt")
            spy.tap("Cancel")
        }
        XCTAssertTrue(confirmation.deleted.isEmpty)
        TestLedger.activity("Tap Delete") {
            confirmation.askToDelete("Notes.txt")
            spy.tap("Delete")
        }
        XCTAssertEqual(confirmation.deleted, ["Notes.txt"])
    }
}
