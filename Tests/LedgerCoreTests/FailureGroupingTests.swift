import Foundation
import LedgerCore
import Testing

@Suite struct FailureGroupingTests {
    @Test(arguments: [
        // fastlane's trainer JUnit (shared fixtures): the same assertion in two files.
        (
            "XCTAssertTrue failed (/Users/josh/Projects/fastlane/test-ios/TestTests/TestTests.swift#CharacterRangeLen=0&EndingLineNumber=36&StartingLineNumber=36)",
            "XCTAssertTrue failed (<path>)"
        ),
        // Surefire (shared fixtures).
        ("expected: <1> but was: <4>", "expected: <<n>> but was: <<n>>"),
        // XCTest on Linux.
        (
            #"XCTAssertEqual failed: ("Optional(<Cart: 0x600003a0c000>)") is not equal to ("nil")"#,
            #"XCTAssertEqual failed: ("Optional(<Cart: <address>>)") is not equal to ("nil")"#
        ),
        // Swift Testing.
        ("Expectation failed: (answer → 41) == 42", "Expectation failed: (answer → <n>) == <n>"),
        // Bacon.
        ("2.==(3) failed", "<n>.==(<n>) failed"),
        (
            "could not open /tmp/TemporaryDirectory.x8Qz1a/cache-3F2504E0-4F89-11D3-9A0C-0305E82C3301.db",
            "could not open <path>"
        ),
        ("session 3F2504E0-4F89-11D3-9A0C-0305E82C3301 expired after 30.5 s", "session <uuid> expired after <n> s"),
        ("token deadbeef12 was refused", "token <id> was refused"),
        ("first line\n\tframe 0x1", "first line"),
    ])
    func volatilePartsAreReplaced(message: String, signature: String) {
        #expect(FailureGrouping.normalised(message) == signature)
    }

    @Test func oneCauseFailingFortyTestsIsOneGroup() {
        var failures = (0..<40).map { index in
            FailureSample(
                test: "App.Sync/test\(index)", run: "run\(index % 2)", at: Double(index % 2) * 86_400,
                message: "Could not connect to 127.0.0.\(index % 3):\(8_000 + index) after \(index) ms",
                file: "Tests/Sync\(index).swift", line: index)
        }
        failures.append(
            FailureSample(test: "App.Cart/testTax", run: "run1", at: 86_400, message: "expected: <1> but was: <0>"))
        let groups = FailureGrouping.groups(failures)
        #expect(groups.count == 2)
        let first = groups[0]
        #expect(first.signature == "Could not connect to <n>.<n>:<n> after <n> ms")
        #expect(first.failures == 40 && first.runs == 2 && first.tests.count == 40 && first.location == nil)
        #expect(first.firstSeen == iso8601(0) && first.lastSeen == iso8601(86_400))
        #expect(groups[1].tests == ["App.Cart/testTax"])
    }

    @Test func aBareMessageIsToldApartByWhereItFailed() {
        let groups = FailureGrouping.groups([
            FailureSample(test: "A/a", run: "r", at: 0, message: "failed", file: "A.swift", line: 3),
            FailureSample(test: "A/b", run: "r", at: 0, message: "failed", file: "A.swift", line: 3),
            FailureSample(test: "B/c", run: "r", at: 0, message: "failed", file: "B.swift", line: 9),
        ])
        #expect(groups.map(\.location) == ["A.swift:3", "B.swift:9"])
        #expect(groups.map(\.failures) == [2, 1])
    }
}
