import Foundation
import LedgerCore
import LedgerImport
import LedgerTestSupport
import Testing

/// Written `xcresulttool` documents for each mapping rule, and malformed ones.
struct XCResultImporterTests {
    static func run(_ json: String, metadata: RunMetadata = RunMetadata(project: "Demo")) throws -> ImportedRun {
        try ImportedRun.importing(Data(json.utf8), with: XCResultImporter(), metadata: metadata)
    }

    /// A document with one unit test bundle `AppTests` holding suite `LoginTests` with `cases`.
    static func document(
        _ cases: String,
        devices: String =
            #"[{"deviceId":"1","deviceName":"My iPhone","modelName":"iPhone 16 Pro","osVersion":"18.2"}]"#,
        configurations: String = #"[{"configurationId":"1","configurationName":"Default"}]"#,
        bundleType: String = "Unit test bundle"
    ) -> String {
        """
        {"devices":\(devices),"testPlanConfigurations":\(configurations),
         "testNodes":[{"name":"Plan","nodeType":"Test Plan","result":"Failed","children":[
           {"name":"AppTests","nodeType":"\(bundleType)","children":[
             {"name":"LoginTests","nodeType":"Test Suite","children":[\(cases)]}]}]}]}
        """
    }

    @Test func aTestThatFailedThenPassedOnRetryIsFlakyInTheRun() throws {
        let run = try Self.run(
            Self.document(
                #"""
                {"name":"testLogin()","nodeIdentifier":"LoginTests/testLogin()","nodeType":"Test Case","result":"Passed","duration":"3s","children":[
                  {"name":"First Run","nodeIdentifier":"1","nodeType":"Repetition","result":"Failed","duration":"1,5s","children":[
                    {"name":"LoginTests.swift:42: XCTAssertEqual failed: (\"a\") is not equal to (\"b\")","nodeType":"Failure Message"}]},
                  {"name":"Retry 1","nodeIdentifier":"2","nodeType":"Repetition","result":"Passed","duration":"1m 2s"}]}
                """#))
        let id = "AppTests.LoginTests/testLogin()"
        #expect(run.outcomes(id) == [.failed, .passed])
        #expect(run.ends.map(\.duration) == [1.5, 62])
        #expect(run.starts.map(\.at) == [ImportedRun.start, ImportedRun.start + 1.5])
        #expect(run.issues(id, attempt: 1).map(\.file) == ["LoginTests.swift"])
        #expect(run.issues(id, attempt: 1).map(\.line) == [42])
        #expect(run.issues(id, attempt: 2).isEmpty)
        #expect(run.start(id)?.suite == "AppTests.LoginTests")
        #expect(run.runEnd == LedgerEvent.RunEnd(at: ImportedRun.start + 63.5, outcome: .passed))
    }

    @Test func expectedFailuresAndUnknownResultsAreMapped() throws {
        let run = try Self.run(
            Self.document(
                #"""
                {"name":"testKnown()","nodeIdentifier":"LoginTests/testKnown()","nodeType":"Test Case","result":"Expected Failure","children":[
                  {"name":"LoginTests.swift:9: known bug #12","nodeType":"Failure Message"}]},
                {"name":"testOdd()","nodeIdentifier":"LoginTests/testOdd()","nodeType":"Test Case","result":"unknown"}
                """#))
        #expect(run.outcomes("AppTests.LoginTests/testKnown()") == [.expectedFailure])
        #expect(run.end("AppTests.LoginTests/testKnown()")?.message == "LoginTests.swift:9: known bug #12")
        #expect(run.issues("AppTests.LoginTests/testKnown()").isEmpty)
        #expect(run.outcomes("AppTests.LoginTests/testOdd()") == [.error])
        #expect(run.issues("AppTests.LoginTests/testOdd()").map(\.message) == ["xcresulttool gave no result (unknown)"])
        #expect(run.runEnd?.outcome == .failed)
    }

    @Test func layerTagsWinAndAUITestBundleIsTheUILayerOtherwise() throws {
        let cases = #"""
            {"name":"Tagged","nodeIdentifier":"LoginTests/tagged()","nodeType":"Test Case","result":"Passed","tags":["integration","slow"]},
            {"name":"Plain","nodeIdentifier":"LoginTests/plain()","nodeType":"Test Case","result":"Passed"}
            """#
        let unit = try Self.run(Self.document(cases))
        #expect(unit.start("AppTests.LoginTests/tagged()")?.layer == .integration)
        #expect(unit.start("AppTests.LoginTests/tagged()")?.tags == ["integration", "slow"])
        #expect(unit.start("AppTests.LoginTests/plain()")?.layer == nil)
        let ui = try Self.run(Self.document(cases, bundleType: "UI test bundle"))
        #expect(ui.start("AppTests.LoginTests/tagged()")?.layer == .integration)
        #expect(ui.start("AppTests.LoginTests/plain()")?.layer == .ui)
    }

    @Test func withoutAnIdentifierTheSuiteNamesMakeThePath() throws {
        let run = try Self.run(
            Self.document(#"{"name":"works","nodeType":"Test Case","result":"Passed","durationInSeconds":0.25}"#))
        #expect(run.testIDs == ["AppTests.LoginTests/works"])
        #expect(run.ends.map(\.duration) == [0.25])
    }

    @Test func argumentsAreTestsNamedTheWayFastlaneTrainerNamesThem() throws {
        let run = try Self.run(
            Self.document(
                #"""
                {"name":"Flag check","nodeIdentifier":"LoginTests/flag(_:)","nodeType":"Test Case","result":"Failed","duration":"2s","children":[
                  {"name":"\"beta\"","nodeType":"Arguments","result":"Passed"},
                  {"name":"\"gamma\"","nodeType":"Arguments","result":"Failed","children":[
                    {"name":"LoginTests.swift:30: Expectation failed","nodeType":"Failure Message"}]}]}
                """#))
        #expect(run.testIDs == ["AppTests.LoginTests/flag(\"beta\")", "AppTests.LoginTests/flag(\"gamma\")"])
        #expect(run.starts.map(\.name) == ["Flag check (\"beta\")", "Flag check (\"gamma\")"])
        #expect(run.ends.map(\.duration) == [1, 1])
        #expect(run.issues.map(\.test) == ["AppTests.LoginTests/flag(\"gamma\")"])
    }

    @Test func theDevicesAreTheRunsConfigurationElseTheMetadatas() throws {
        let metadata = RunMetadata(project: "Demo", configuration: "from the command line")
        let cases = #"{"name":"t()","nodeIdentifier":"LoginTests/t()","nodeType":"Test Case","result":"Passed"}"#
        let withDevice = try Self.run(Self.document(cases), metadata: metadata)
        #expect(withDevice.runStart?.configuration == "iPhone 16 Pro (18.2)")
        let without = try Self.run(Self.document(cases, devices: "[]"), metadata: metadata)
        #expect(without.runStart?.configuration == "from the command line")
        let two = try Self.run(
            Self.document(
                cases,
                devices: #"[{"modelName":"iPhone 16","osVersion":"18.2"},{"deviceName":"iPad Air","osVersion":"18.1"}]"#
            ))
        #expect(two.runStart?.configuration == "iPhone 16 (18.2), iPad Air (18.1)")
        #expect(two.warnings.count == 1)
        let plans = try Self.run(
            Self.document(
                cases,
                configurations: #"[{"configurationId":"1","configurationName":"English"},"#
                    + #"{"configurationId":"2","configurationName":"German"}]"#))
        #expect(plans.runStart?.configuration == "iPhone 16 Pro (18.2) · English, German")
        #expect(plans.warnings.count == 1)
    }

    @Test(arguments: [
        ("", "not xcresulttool test results: the JSON is malformed"),
        (#"{"devices":[]}"#, "not xcresulttool test results: testNodes is missing"),
        (#"{"testNodes":[{"name":"x"}]}"#, "not xcresulttool test results: testNodes[0].nodeType is missing"),
        (
            #"{"testNodes":[{"nodeType":"Test Case","durationInSeconds":"slow"}]}"#,
            "not xcresulttool test results: testNodes[0].durationInSeconds is not a number"
        ),
    ])
    func malformedDocumentsAreClearErrors(json: String, problem: String) throws {
        let error = try ImportedRun.failure(Data(json.utf8), with: XCResultImporter())
        #expect(error.problem.hasPrefix(problem), "\(error.problem)")
        #expect(error.fix?.contains("xcresulttool get test-results tests") == true)
    }

    @Test func hostileNamesStayLiteralAndDeepNestingIsRead() throws {
        var nodes =
            #"{"name":"x\"}, {\"type\": \"run.end","nodeIdentifier":"'; DROP TABLE tests;--/x\"}, {\"type\": \"run.end","nodeType":"Test Case","result":"Passed"}"#
        for level in 0..<100 { nodes = #"{"name":"S\#(level)","nodeType":"Test Suite","children":[\#(nodes)]}"# }
        let run = try Self.run(Self.document(nodes))
        #expect(run.testIDs == [#"AppTests.'; DROP TABLE tests;--/x"}, {"type": "run.end"#])
        #expect(run.starts.map(\.name) == [#"x"}, {"type": "run.end"#])
    }
}
