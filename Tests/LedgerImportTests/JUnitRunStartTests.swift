import Foundation
import LedgerCore
import Testing

/// What `run.start` takes from the report and what from the run's metadata.
struct JUnitRunStartTests {
    static let metadata = RunMetadata(
        project: "Shop", revision: "abc123", branch: "main", ci: .init(provider: "github"),
        host: "runner-1", ciAttempt: 2, configuration: "iPhone 15 / iOS 18", labels: ["team": "ios"])

    @Test(arguments: [
        ("2024-01-01T00:00:00Z", 1_704_067_200.0),
        ("2024-01-01T00:00:00", 1_704_067_200.0),
        ("2024-01-01T01:30:00+01:30", 1_704_067_200.0),
        ("2024-01-01T00:00:00.250-0000", 1_704_067_200.25),
        ("2024-01-01 00:00:00", 1_704_067_200.0),
    ])
    func suiteTimestampInAnyISO8601FormIsTheRunStart(timestamp: String, expected: Double) throws {
        let run = try JUnitHarness.run(
            "<testsuite name=\"S\" timestamp=\"\(timestamp)\"><testcase classname=\"A\" name=\"b\"/></testsuite>")
        #expect(run.runStart?.at == expected)
        #expect(run.start("A/b")?.at == expected)
    }

    @Test func unreadableTimestampFallsBackToTheContextStart() throws {
        let run = try JUnitHarness.run(
            #"<testsuite name="S" timestamp="yesterday"><testcase classname="A" name="b"/></testsuite>"#)
        #expect(run.runStart?.at == JUnitHarness.fallbackStart)
    }

    @Test func runStartsAtTheEarliestSuiteTimestamp() throws {
        let run = try JUnitHarness.run(
            """
            <testsuites><testsuite name="S1" timestamp="2024-01-01T00:10:00Z"><testcase classname="A" name="a"/></testsuite>
            <testsuite name="S2"><testcase classname="A" name="b" time="1"/></testsuite>
            <testsuite name="S3" timestamp="2024-01-01T00:05:00Z"/></testsuites>
            """)
        #expect(run.runStart?.at == 1_704_067_500)
        // The earlier timestamp comes after the tests: a second run.start carries it.
        #expect(run.runStarts.map(\.at) == [1_704_067_800, 1_704_067_500])
        #expect(run.types.suffix(2) == ["run.start", "run.end"])
        #expect(run.start("A/a")?.at == 1_704_067_800)
        // A suite without a timestamp goes on from where the one before it ended.
        #expect(run.start("A/b")?.at == 1_704_067_800)
        #expect(run.runEnd?.at == 1_704_067_801)
    }

    @Test func testsBeforeAnySuiteTimestampStartAtTheFallback() throws {
        // Read in one pass, a test is sent before a later suite's timestamp is known: it and
        // the run start at the context's fallback (the file's modification time, normally
        // later than every timestamp in it, so a store still records the earliest timestamp).
        let run = try JUnitHarness.run(
            """
            <testsuites><testsuite name="S1"><testcase classname="A" name="a"/></testsuite>
            <testsuite name="S2" timestamp="2024-01-01T00:10:00Z"/>
            <testsuite name="S3" timestamp="2024-01-01T00:05:00Z"/></testsuites>
            """)
        #expect(run.start("A/a")?.at == JUnitHarness.fallbackStart)
        #expect(run.runStarts.map(\.at) == [JUnitHarness.fallbackStart])
    }

    @Test func suiteTimestampKnownBeforeTheFirstTestGivesASingleRunStart() throws {
        let run = try JUnitHarness.run(
            """
            <testsuites><testsuite name="S" timestamp="2024-01-01T00:00:00Z"><testcase classname="A" name="a" time="2"/></testsuite></testsuites>
            """, metadata: RunMetadata(project: "Demo"))
        #expect(run.types == ["run.start", "test.start", "test.end", "run.end"])
        #expect(run.runStart?.at == 1_704_067_200)
        #expect(run.runEnd?.at == 1_704_067_202)
    }

    @Test func metadataFillsRunStartAndItsConfigurationWhenTheReportHasNone() throws {
        let run = try JUnitHarness.run(
            #"<testsuite name="S"><testcase classname="A" name="b"/></testsuite>"#, metadata: Self.metadata)
        #expect(run.runStart == Self.metadata.runStart(at: JUnitHarness.fallbackStart, source: "junit"))
        #expect(run.runStart?.configuration == "iPhone 15 / iOS 18")
        // A device written after the tests would win over the metadata, so the configuration
        // waits for the end of the document, in a second run.start.
        #expect(run.runStarts.map(\.configuration) == [nil, "iPhone 15 / iOS 18"])
    }

    @Test func trainerDeviceWinsOverConfigurationAndMetadata() throws {
        let run = try JUnitHarness.run(
            """
            <testsuites><testsuite name="Bundle"><testcase classname="A" name="b"/>
            <properties><property name="Configuration" value="Plan A"/><property name="device" value="iPhone 16 Pro (18.2)"/></properties>
            </testsuite></testsuites>
            """, metadata: Self.metadata)
        #expect(run.runStart?.configuration == "iPhone 16 Pro (18.2)")
        #expect(run.runStart?.revision == "abc123")
        #expect(run.runStarts.map(\.configuration) == [nil, "iPhone 16 Pro (18.2)"])
        #expect(run.runStarts.allSatisfy { $0.revision == "abc123" && $0.labels == ["team": "ios"] })
    }

    @Test func deviceKnownBeforeTheFirstTestIsInTheFirstRunStart() throws {
        let run = try JUnitHarness.run(
            """
            <testsuites><testsuite name="Bundle"><properties><property name="device" value="iPad (17.5)"/></properties>
            <testcase classname="A" name="b"/></testsuite></testsuites>
            """, metadata: Self.metadata)
        #expect(run.runStarts.map(\.configuration) == ["iPad (17.5)"])
    }

    @Test func trainerConfigurationIsUsedWithoutDeviceAndTestcasePropertiesAreNot() throws {
        let run = try JUnitHarness.run(
            """
            <testsuites><testsuite name="Bundle"><properties><property name="Configuration">Plan B</property></properties>
            <testcase classname="A" name="b"><properties><property name="device" value="not a suite property"/></properties></testcase>
            </testsuite></testsuites>
            """)
        #expect(run.runStart?.configuration == "Plan B")
    }
}
