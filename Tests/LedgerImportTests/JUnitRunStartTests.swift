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
            <testsuites><testsuite name="S1"><testcase classname="A" name="a"/></testsuite>
            <testsuite name="S2" timestamp="2024-01-01T00:10:00Z"/>
            <testsuite name="S3" timestamp="2024-01-01T00:05:00Z"/></testsuites>
            """)
        #expect(run.runStart?.at == 1_704_067_500)
        #expect(run.start("A/a")?.at == 1_704_067_500)
    }

    @Test func metadataFillsRunStartAndItsConfigurationWhenTheReportHasNone() throws {
        let run = try JUnitHarness.run(
            #"<testsuite name="S"><testcase classname="A" name="b"/></testsuite>"#, metadata: Self.metadata)
        #expect(run.runStart == Self.metadata.runStart(at: JUnitHarness.fallbackStart, source: "junit"))
        #expect(run.runStart?.configuration == "iPhone 15 / iOS 18")
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
