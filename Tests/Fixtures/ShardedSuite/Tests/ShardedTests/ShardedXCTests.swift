import XCTest

final class ShardedXCTests: XCTestCase {
    func testCase01() { XCTAssertEqual(1 + 1, 2) }
    func testCase02() { XCTAssertEqual(2 + 1, 3) }
    func testCase03() { XCTAssertEqual(3 + 1, 4) }
    func testCase04() { XCTAssertEqual(4 + 1, 5) }
    func testCase05() { XCTAssertEqual(5 + 1, 6) }
    func testCase06() { XCTAssertEqual(6 + 1, 7) }
    func testCase07() { XCTAssertEqual(7 + 1, 8) }
    func testCase08() { XCTAssertEqual(8 + 1, 9) }
    func testCase09() { XCTAssertEqual(9 + 1, 10) }
    func testCase10() { XCTAssertEqual(10 + 1, 11) }
    func testCase11() { XCTAssertEqual(11 + 1, 12) }
    func testCase12() { XCTAssertEqual(12 + 1, 13) }
    func testCase13() { XCTAssertEqual(13 + 1, 14) }
    func testCase14() { XCTAssertEqual(14 + 1, 15) }
    func testCase15() { XCTAssertEqual(15 + 1, 16) }
    func testCase16() { XCTAssertEqual(16 + 1, 17) }
    func testCase17() { XCTAssertEqual(17 + 1, 18) }
    func testCase18() { XCTAssertEqual(18 + 1, 19) }
    func testCase19() { XCTAssertEqual(19 + 1, 20) }
    func testCase20() { XCTAssertEqual(20 + 1, 21) }
}
