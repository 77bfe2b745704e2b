import LedgerCore
import LedgerImport
import Testing

/// XCTest's console read line by line, as `record` reads `swift test` without --parallel.
@Suite struct XCTestConsoleParserTests {
    @Test func aCaseThatStartedAndNeverEndedIsACrash() {
        var parser = XCTestConsoleParser()
        let lines = [
            "Test Case 'CartTests.testTotal' started at 2026-11-29 00:02:28.442",
            "Test Case 'CartTests.testTotal' passed (0.007 seconds)",
            "Test Case 'CartTests.testCheckout' started at 2026-11-29 00:02:28.449",
        ]
        for (index, line) in lines.enumerated() { parser.consume(Substring(line), now: 100 + Double(index)) }
        #expect(parser.results.map(\.name) == ["testTotal"])
        #expect(parser.results.first?.outcome == .passed)
        let unfinished = parser.unfinished
        #expect(unfinished.map(\.suite) == ["CartTests"] && unfinished.map(\.name) == ["testCheckout"])
        #expect(unfinished.first?.outcome == .crashed && unfinished.first?.startedAt == 102)
        #expect(unfinished.first?.issues.map(\.kind) == [.crash])
    }

    @Test func everyCaseThatEndedLeavesNothingUnfinished() {
        var parser = XCTestConsoleParser()
        parser.consume("Test Case '-[Shop.CartTests testTotal]' started.", now: 1)
        parser.consume("Test Case '-[Shop.CartTests testTotal]' failed (0.010 seconds).", now: 2)
        #expect(parser.unfinished.isEmpty)
        #expect(parser.results.map(\.outcome) == [.failed])
    }
}
