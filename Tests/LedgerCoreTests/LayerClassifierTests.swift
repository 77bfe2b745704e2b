import LedgerCore
import Testing

@Suite struct LayerClassifierTests {
    let classifier = LayerClassifier(rules: [
        .init(pattern: "*SnapshotTests/*", layer: .integration),
        .init(pattern: "Tests/E2E/*", layer: .ui),
    ])

    @Test func explicitLayerWins() {
        #expect(classifier.layer(explicit: .unit, id: "AppUITests.Login/testLogin", file: nil) == .unit)
    }

    @Test func rulesMatchIdOrFileBeforeNaming() {
        #expect(classifier.layer(explicit: nil, id: "App.SnapshotTests/testHome", file: nil) == .integration)
        #expect(classifier.layer(explicit: nil, id: "App.Checkout/testPay", file: "Tests/E2E/Pay.swift") == .ui)
    }

    @Test func namingThenUnit() {
        #expect(classifier.layer(explicit: nil, id: "AppUITests.LoginUITests/testLogin", file: nil) == .ui)
        #expect(classifier.layer(explicit: nil, id: "AppIntegrationTests.Sync/testSync", file: nil) == .integration)
        #expect(classifier.layer(explicit: nil, id: "AppTests.Cache/testEvict", file: nil) == .unit)
    }

    @Test(arguments: [
        ("*", "anything/at all", true), ("a?c", "abc", true), ("a?c", "ac", false),
        ("*Tests/*", "AppTests/testX", true), ("*Tests/*", "AppTest/testX", false), ("a*b*c", "aXbYc", true),
        ("abc", "abcd", false),
    ])
    func globMatching(pattern: String, text: String, matches: Bool) {
        #expect(Glob.matches(pattern, text) == matches)
    }
}
