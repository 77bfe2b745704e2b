import Foundation
import LedgerCore
import LedgerImport
import LedgerTestSupport
import Testing

/// A bundle's tests with their activities and attachments, as xcresulttool gave them for a real
/// bundle (Tests/Fixtures/XCResultBundle, see its SOURCES.md), and the rules on constructed trees.
@Suite struct XCResultBundleImportTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Fixtures/XCResultBundle")

    static func fixture(_ name: String) throws -> Data { try Data(contentsOf: folder.appending(path: name)) }

    static func details(attachments: [String: XCResultBundleDetails.ExportedAttachment] = [:]) throws
        -> XCResultBundleDetails
    {
        XCResultBundleDetails(
            activities: [
                "RandomStuffUITestsLaunchTests/testLaunch": try fixture(
                    "activities-RandomStuffUITestsLaunchTests-testLaunch.json"),
                "RandomStuffTests/testExample()": try fixture("activities-RandomStuffTests-testExample().json"),
            ], attachments: attachments)
    }

    @Test func activitiesBecomeStepsWithTheirTimesAndAttachments() throws {
        let attachments = try XCResultBundleDetails.exportedAttachments(
            manifest: try Self.fixture("manifest.json"), in: URL(fileURLWithPath: "/nowhere"), keep: true)
        let run = try ImportedRun.importing(
            try Self.fixture("tests.json"), with: XCResultImporter(bundle: try Self.details(attachments: attachments)))
        let test = "RandomStuffUITests.RandomStuffUITestsLaunchTests/testLaunch (Light Appearance, Portrait)"
        #expect(run.testIDs.contains(test), "\(run.testIDs)")
        // The run and the attempt start when their first activity did, not at the fallback.
        #expect(run.runStart?.at == 1_768_127_888.943)
        let start = try #require(run.start(test))
        #expect(start.at == 1_768_127_888.943 && start.layer == .ui)
        let steps = run.events.compactMap { event -> LedgerEvent.ActivityStart? in
            guard case .activityStart(let step) = event, step.test == test else { return nil }
            return step
        }
        #expect(steps.first?.name == "Setting device orientation to Portrait" && steps.first?.parent == nil)
        #expect(steps[1].name == "Device orientation changed to Portrait" && steps[1].parent == steps[0].activity)
        #expect(steps.count == 15, "\(steps.map(\.name))")
        // A step ends where the next at its level starts.
        let ends = Dictionary(
            uniqueKeysWithValues: run.events.compactMap { event -> (String, LedgerEvent.ActivityEnd)? in
                guard case .activityEnd(let end) = event else { return nil }
                return (end.activity, end)
            })
        #expect(ends[steps[0].activity]?.at == 1_768_127_889.239 && ends[steps[0].activity]?.outcome == .passed)
        let attached = run.events.compactMap { event -> LedgerEvent.Attachment? in
            guard case .attachment(let attachment) = event, attachment.test == test else { return nil }
            return attachment
        }
        #expect(attached.count == 1)
        #expect(attached.first?.name == "Launch Screen" && attached.first?.mediaType == "image/png")
        #expect(attached.first?.at == 1_768_127_901.685)
        #expect(attached.first?.path == "/nowhere/B7DFB9D4-5AE8-48E8-B9F7-81401168696A.png")
        #expect(
            steps.first { $0.activity == attached.first?.activity }?.name == "Added attachment named 'Launch Screen'")
        // Every argument's run found its own activities.
        for argument in ["Dark Appearance, Landscape Right", "Dark Appearance, Portrait", "Unspecified, Portrait"] {
            let id = "RandomStuffUITests.RandomStuffUITestsLaunchTests/testLaunch (\(argument))"
            #expect(run.events.contains { if case .attachment(let a) = $0 { a.test == id } else { false } }, "\(id)")
        }
        // A test without activities keeps the clock; one with an empty list too.
        #expect(run.start("RandomStuffTests.RandomStuffTests/testExample()") != nil)
        #expect(run.runEnd?.outcome == .passed)
        #expect(run.timesAreConsistent)
    }

    @Test func anInterruptedRunEndsInterrupted() throws {
        let run = try ImportedRun.importing(
            try Self.fixture("tests.json"), with: XCResultImporter(bundle: try Self.details(), interrupted: true))
        #expect(run.runEnd?.outcome == .interrupted)
    }

    /// A tree written here: a failure, a layer label, a step without a start.
    static let constructed = #"""
        {"testIdentifier": "Suite/testLogin()", "testRuns": [{"activities": [
          {"title": "testledger.layer:integration", "startTime": 100.0},
          {"title": "Open the app", "startTime": 100.5, "childActivities": [{"title": "Tap Login"}]},
          {"title": "Assert the banner", "startTime": 101.0, "isAssociatedWithFailure": true,
           "attachments": [{"name": "log.txt", "timestamp": 101.2}]}
        ]}]}
        """#

    @Test func aFailureALayerLabelAndAStepWithoutStart() throws {
        let tests = #"""
            {"testNodes": [{"nodeType": "Unit test bundle", "name": "AppTests", "children": [
              {"nodeType": "Test Case", "name": "testLogin()", "nodeIdentifier": "Suite/testLogin()",
               "result": "Failed", "durationInSeconds": 2,
               "children": [{"nodeType": "Failure Message", "name": "Login.swift:9: XCTAssertTrue failed"}]}]}]}
            """#
        let run = try ImportedRun.importing(
            Data(tests.utf8),
            with: XCResultImporter(
                bundle: XCResultBundleDetails(activities: ["Suite/testLogin()": Data(Self.constructed.utf8)])))
        let test = "AppTests.Suite/testLogin()"
        #expect(run.start(test)?.layer == .integration, "the label declares the layer")
        let names = run.events.compactMap { event -> String? in
            if case .activityStart(let step) = event { step.name } else { nil }
        }
        #expect(names == ["Open the app", "Tap Login", "Assert the banner"], "the label is not a step")
        let ends = run.events.compactMap { event -> LedgerEvent.ActivityEnd? in
            if case .activityEnd(let end) = event { end } else { nil }
        }
        #expect(ends.map(\.outcome) == [.passed, .passed, .failed])
        // "Tap Login" has no start: it starts with its parent and ends where the parent does.
        #expect(ends.map(\.at) == [101.0, 101.0, 102.0], "the last step ends with the attempt (100 + 2 s)")
        let attachment = try #require(
            run.events.compactMap { event -> LedgerEvent.Attachment? in
                if case .attachment(let a) = event { a } else { nil }
            }.first)
        #expect(attachment.name == "log.txt" && attachment.mediaType == "text/plain" && attachment.size == nil)
        #expect(run.end(test)?.outcome == .failed && run.issues(test).first?.line == 9)
    }

    @Test func activitiesThatAreNotXcresulttoolsNameTheTest() throws {
        let details = XCResultBundleDetails(activities: ["RandomStuffTests/testExample()": Data("[1, 2]".utf8)])
        #expect(throws: LedgerInputError.self) {
            try ImportedRun.importing(try Self.fixture("tests.json"), with: XCResultImporter(bundle: details))
        }
        do {
            _ = try ImportedRun.importing(try Self.fixture("tests.json"), with: XCResultImporter(bundle: details))
        } catch let error as LedgerInputError {
            #expect(error.problem.contains("the activities of RandomStuffTests/testExample()"))
        }
    }

    @Test(arguments: [
        ("Launch Screen_0_53E1C67A-8428-403B-A173-57C38BE9DA8B.png", "Launch Screen"),
        ("pixel_12_D7579D4F-66F9-4664-9204-EF82E212000F", "pixel"),
        ("notes.txt", "notes.txt"),
        ("_0_53E1C67A-8428-403B-A173-57C38BE9DA8B.png", "_0_53E1C67A-8428-403B-A173-57C38BE9DA8B.png"),
        ("a_x_53E1C67A-8428-403B-A173-57C38BE9DA8B.png", "a_x_53E1C67A-8428-403B-A173-57C38BE9DA8B.png"),
    ])
    func xcodesAttachmentNamesLoseTheirIndexAndUUID(name: String, shown: String) {
        let run = try? ImportedRun.importing(
            Data(
                #"{"testNodes": [{"nodeType": "Test Case", "name": "t()", "nodeIdentifier": "S/t()", "result": "Passed"}]}"#
                    .utf8),
            with: XCResultImporter(
                bundle: XCResultBundleDetails(activities: [
                    "S/t()": Data(
                        #"{"testRuns": [{"activities": [{"title": "a", "startTime": 5, "attachments": [{"name": "\#(name)"}]}]}]}"#
                            .utf8)
                ])))
        let attachment = run?.events.compactMap { event -> LedgerEvent.Attachment? in
            if case .attachment(let a) = event { a } else { nil }
        }.first
        #expect(attachment?.name == shown)
    }
}
