import Foundation
import LedgerCore
import Testing

/// `xcodebuild -enumerate-tests`' flat JSON, read as the ledger names tests.
@Suite struct XcodebuildTestListTests {
    @Test func enabledTestsOfEveryPlanBecomeLedgerIDsOnce() throws {
        let json = """
            {"errors": [], "values": [
              {"disabledTests": [{"identifier": "App/Off/testOff()"}],
               "enabledTests": [{"identifier": "AppTests/CartTests/testAdd()"}, {"identifier": "AppTests/Cart/`adds items`()"}],
               "testPlan": "App"},
              {"enabledTests": [{"identifier": "AppTests/CartTests/testAdd()"}, {"identifier": "Solo"}], "testPlan": "More"}
            ]}
            """
        let ids = try XcodebuildTestList.stableIDs(enumeration: Data(json.utf8), source: "list.json")
        #expect(ids == ["AppTests.Cart/`adds items`()", "AppTests.CartTests/testAdd()", "Solo"])
    }

    @Test func errorsAndOtherFilesAreRefusedNamingTheFile() {
        let errors = #"{"errors": ["Scheme App is not configured for testing"], "values": []}"#
        #expect {
            try XcodebuildTestList.stableIDs(enumeration: Data(errors.utf8), source: "list.json")
        } throws: { error in
            "\(error)".contains("list.json") && "\(error)".contains("Scheme App is not configured for testing")
        }
        #expect(throws: LedgerInputError.self) {
            try XcodebuildTestList.stableIDs(enumeration: Data("[1, 2]".utf8), source: "list.json")
        }
    }

    @Test func aConfigurationArgumentsAndParenthesesAreLeftOutWhenComparing() {
        let comparable = XcodebuildTestList.comparable
        #expect(comparable("App.Launch/testLaunch (Dark Appearance, Portrait)") == "App.Launch/testLaunch")
        #expect(comparable("App.Launch/testLaunch()") == "App.Launch/testLaunch")
        #expect(comparable("App.Suite/flag(_:)") == comparable("App.Suite/flag(\"a/b\")"))
        #expect(comparable("App.Suite/flag(_:)") != comparable("App.Suite/flags(_:)"))
    }
}
