import Foundation
import LedgerCore
import Testing

@Suite struct QuarantineValueTests {
    @Test func swiftTestSkipsMatchTheTestUnderXCTestAndSwiftTestingAndNothingLonger() throws {
        let arguments = SkipArguments.arguments(
            for: .swiftTest, skipping: ["App.Cart/testTotal", "App.Outer/Inner/checks(price:)"])
        #expect(arguments.count == 4 && arguments[0] == "--skip" && arguments[2] == "--skip")
        let xctest = try Regex(arguments[1])
        #expect("App.Cart/testTotal".contains(xctest))
        #expect(!"App.Cart/testTotalAgain".contains(xctest) && !"AppXCart/testTotal".contains(xctest))
        let swiftTesting = try Regex(arguments[3])
        #expect("App.Outer.Inner.checks(price:)/Cart.swift:12:2".contains(swiftTesting))
        #expect("App.Outer/Inner/checks(price:)".contains(swiftTesting))
        #expect(!"App.Outer.Inner.checks(price:count:)/Cart.swift:20:2".contains(swiftTesting))
    }

    @Test func xcodebuildSkipsNameTheTargetThenClassThenTest() {
        #expect(
            SkipArguments.arguments(for: .xcodebuild, skipping: ["AppTests.Cart/testTotal", "Bare/test"])
                == ["-skip-testing:AppTests/Cart/testTotal", "-skip-testing:Bare/test"])
    }

    /// A shell keeps quotes that a command substitution prints: the words go unquoted, and a
    /// pattern has no space for the shell to split at.
    @Test func substitutionLinesAreBareWordsAndPatternsWriteSpacesAsEscapes() {
        let arguments = SkipArguments.arguments(for: .swiftTest, skipping: ["App.Cart/`adds an item`()"])
        #expect(
            arguments == [
                "--skip",
                #"^(App\.Cart/`adds\x{20}an\x{20}item`\(\)|App\.Cart\.`adds\x{20}an\x{20}item`\(\))(/|$)"#,
            ])
        #expect(SkipArguments.substitutionLine(arguments) == arguments.joined(separator: " "))
        // No `?` or `*` for a shell's pathname expansion to act on.
        #expect(!arguments[1].contains("?") && !arguments[1].contains("*"))
        let pattern = try! Regex(arguments[1])
        #expect("App.Cart.`adds an item`()/CartTests.swift:3:2".contains(pattern))
        #expect(!"App.Cart.`adds an item too`()".contains(pattern))
    }

    @Test func closestIDsPreferThoseContainingTheGivenOneThenFewestEdits() {
        let known = ["App.Cart/testTotal", "App.Cart/testTax", "App.Login/testFails", "Other/thing"]
        #expect(
            ClosestTestIDs.suggest(for: "app.cart/testtota", among: known) == [
                "App.Cart/testTotal", "App.Cart/testTax", "App.Login/testFails",
            ])
        #expect(ClosestTestIDs.suggest(for: "App.Cart/testTxa", among: known, limit: 1) == ["App.Cart/testTax"])
        #expect(ClosestTestIDs.suggest(for: "x", among: []) == [])
    }

    @Test func anEntryAppliesUntilItsExpiryAndToItsConfiguration() {
        let every = QuarantinedTest(project: "P", test: "A/a", mode: .mute, reason: "r", by: "me", since: 10, until: 20)
        #expect(every.isActive(at: 19.9) && !every.isActive(at: 20))
        #expect(every.applies(to: "") && every.applies(to: "iPhone 16"))
        let one = QuarantinedTest(
            project: "P", test: "A/a", configuration: "iPhone 16", mode: .skip, reason: "r", by: "me", since: 10)
        #expect(one.isActive(at: 1e12) && one.applies(to: "iPhone 16") && !one.applies(to: ""))
    }

    @Test func jsonGivesTimesInISO8601AndReadsThemBack() throws {
        let entry = QuarantinedTest(
            project: "P", test: "A/a", mode: .skip, reason: "hangs", by: "me", since: 1_767_139_200,
            until: 1_767_225_600)
        let json = String(decoding: try JSONEncoder().encode(entry), as: UTF8.self)
        #expect(json.contains(#""since":"2025-12-31T00:00:00Z""#) && json.contains(#""until":"2026-01-01T00:00:00Z""#))
        #expect(try JSONDecoder().decode(QuarantinedTest.self, from: Data(json.utf8)) == entry)
        let change = QuarantineChange(
            id: 3, project: "P", test: "A/a", configuration: "*", action: .remove, mode: nil, reason: "fixed",
            by: "me", at: 1_767_139_200, evidence: #"{"quietRuns":17}"#)
        #expect(try JSONDecoder().decode(QuarantineChange.self, from: JSONEncoder().encode(change)) == change)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(
                QuarantinedTest.self,
                from: Data(
                    #"{"project":"P","test":"A","configuration":"*","mode":"mute","reason":"r","by":"m","since":"yesterday","automatic":false}"#
                        .utf8))
        }
    }

    @Test func anEndCountsForwardFromNowOrIsADate() throws {
        let now = Date(timeIntervalSince1970: 1_000_000)
        #expect(try TimeWindow.end("14d", now: now) == 1_000_000 + 14 * 86_400)
        #expect(try TimeWindow.end("2026-12-31", now: now) == 1_798_675_200)
        #expect(throws: LedgerInputError.self) { try TimeWindow.end("soon", now: now) }
    }
}
