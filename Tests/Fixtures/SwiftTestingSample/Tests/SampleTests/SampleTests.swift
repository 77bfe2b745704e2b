// One test per outcome TestLedger's Swift Testing importer must read; the importer's
// SwiftTestingRealStreamTests run this package and check each of them.
import Testing

extension Tag {
    @Tag static var integration: Self
    @Tag static var slow: Self
}

@Test func passes() {
    #expect(1 + 1 == 2)
}

@Test func failsAnExpectation() {
    let answer = 41
    #expect(answer == 42)
}

@Test func passesWithAKnownIssue() {
    withKnownIssue("Known to be broken") {
        #expect(Bool(false))
    }
}

@Test(.disabled("Waiting for the new API")) func isSkipped() {}

@Test(arguments: [1, 2, 3]) func checksEachArgument(value: Int) {
    #expect(value != 2)
}

@Test func sleepsFiftyMilliseconds() async throws {
    try await Task.sleep(for: .milliseconds(50))
}

@Test(.tags(.integration, .slow)) func isTagged() {}

@Suite("Outer suite") struct Outer {
    @Suite("Inner suite") struct Inner {
        @Test("Nested test display name") func nestedPasses() {
            #expect(true)
        }
    }
}
