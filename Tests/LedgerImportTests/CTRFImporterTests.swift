import Foundation
import LedgerCore
import LedgerImport
import LedgerTestSupport
import Testing

/// CTRF reports from CTRF's own reporters and spec, written ones for each rule, and malformed ones.
struct CTRFImporterTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appending(path: "../Fixtures/CTRF").standardizedFileURL

    static func sample(_ name: String) throws -> ImportedRun {
        try ImportedRun.importing(file: fixtures.appending(path: name), with: CTRFImporter())
    }

    static func run(_ tests: String, summary: String = #""start":1700000000000,"stop":1700000010000"#) throws
        -> ImportedRun
    {
        try ImportedRun.importing(
            Data(
                (#"{"reportFormat":"CTRF","specVersion":"0.2.0","results":{"tool":{"name":"x"},"summary":{"#
                    + summary + #"},"tests":["# + tests + "]}}").utf8),
            with: CTRFImporter())
    }

    @Test(arguments: [
        ("sample-jest.json", 21, 0), ("sample-webdriverio.json", 2, 1), ("sample-playwright-legacy.json", 6, 0),
        ("example-spec-with-retries.json", 2, 0),
    ])
    func realReportsImportWithTheirCounts(file: String, tests: Int, failed: Int) throws {
        let run = try Self.sample(file)
        #expect(run.testIDs.count == tests)
        #expect(run.finalOutcomes.values.filter(\.isFailure).count == failed)
        #expect(run.attemptsAreWellFormed)
        #expect(run.runEnd?.outcome == (failed > 0 ? .failed : .passed))
        #expect(run.runStart?.source == "ctrf")
    }

    @Test func retryAttemptsBecomeTheTestsAttempts() throws {
        let run = try Self.sample("example-spec-with-retries.json")
        #expect(run.outcomes("flaky test") == [.failed, .failed, .passed])
        #expect(run.issues("flaky test", attempt: 1).map(\.message) == ["Connection timeout"])
        #expect(run.end("flaky test", attempt: 2)?.duration == 0.13)
        #expect(run.runStart?.at == 1_609_459_200)
        #expect(run.runEnd?.at == 1_609_459_210)
    }

    @Test func aRetryCountWithoutDetailIsThatManyFailedAttempts() throws {
        let run = try Self.sample("sample-webdriverio.json")
        let retried = try #require(run.testIDs.first)
        #expect(run.outcomes(retried) == Array(repeating: .failed, count: 5) + [.passed])
        // The older key `retry` counts too.
        let legacy = try Self.run(
            #"{"name":"t","status":"failed","duration":10,"retry":2,"flake":false,"suite":"a > b"}"#)
        #expect(legacy.testIDs == ["a > b/t"])
        #expect(legacy.outcomes("a > b/t") == [.failed, .failed, .failed])
    }

    @Test func statusesSuitesAndPlacesMap() throws {
        let run = try Self.run(
            [
                #"{"name":"ok","status":"passed","duration":1500,"suite":["Login","signs in"],"filePath":"tests/login.spec.ts","line":12}"#,
                #"{"name":"broke","status":"failed","duration":20,"message":"expected 1","trace":"at x.ts:3"}"#,
                #"{"name":"later","status":"pending","duration":0,"message":"todo"}"#,
                #"{"name":"odd","status":"other","duration":0}"#,
                #"{"name":"ok","status":"passed","duration":1,"suite":["Login","signs in"]}"#,
            ].joined(separator: ","))
        #expect(run.testIDs == ["Login > signs in/ok", "broke", "later", "odd", "Login > signs in/ok (2)"])
        #expect(run.start("Login > signs in/ok")?.file == "tests/login.spec.ts")
        #expect(run.start("Login > signs in/ok")?.line == 12)
        #expect(run.end("Login > signs in/ok")?.duration == 1.5)
        #expect(run.finalOutcomes["later"] == .skipped && run.end("later")?.message == "todo")
        #expect(run.finalOutcomes["odd"] == .error)
        #expect(run.issues("broke").map(\.message) == ["expected 1"])
        #expect(run.end("broke")?.message == "at x.ts:3")
    }

    @Test func detectionTellsCTRFFromOtherJSON() {
        #expect(InputFormat.detect(prefix: Data(#"{"reportFormat": "CTRF", "specVersion": "0.2.0"}"#.utf8)) == .ctrf)
        #expect(InputFormat.detect(prefix: Data(#" {"results": {"tool": {"name": "jest"}}}"#.utf8)) == .ctrf)
        #expect(InputFormat.detect(prefix: Data(#"{"results": {"summary": {}}}"#.utf8)) == nil)
        #expect(InputFormat.detect(prefix: Data(#"{"reportFormat": "JUnit"}"#.utf8)) == nil)
        // Sorted members put others first.
        #expect(
            InputFormat.detect(
                prefix: Data(#"{"generatedBy": "testledger", "reportFormat" : "CTRF", "results": {}}"#.utf8))
                == .ctrf)
    }

    @Test func malformedReportsNameWhatIsWrong() throws {
        let missing = try ImportedRun.failure(
            Data(#"{"results":{"tool":{"name":"x"},"tests":[{"name":"a","duration":1}]}}"#.utf8), with: CTRFImporter())
        #expect(missing.description.contains("results.tests[0].status is missing"), "\(missing)")
        let truncated = try ImportedRun.failure(
            Data(#"{"results":{"tool":{"name":"x"},"tests":[{"#.utf8), with: CTRFImporter())
        #expect(truncated.description.contains("the JSON is malformed"), "\(truncated)")
    }

    @Test func retryAttemptsThatListTheFinalOneTooAreNotCountedTwice() throws {
        let attempt = { (number: Int, status: String) in #"{"attempt":\#(number),"status":"\#(status)","duration":5}"# }
        let run = try Self.run(
            [
                #"{"name":"all","status":"passed","duration":5,"retries":2,"retryAttempts":["#
                    + [attempt(1, "failed"), attempt(2, "failed"), attempt(3, "passed")].joined(separator: ",") + "]}",
                #"{"name":"earlier","status":"passed","duration":5,"retries":1,"retryAttempts":["#
                    + attempt(1, "failed") + "]}",
                #"{"name":"uncounted","status":"failed","duration":5,"retryAttempts":["# + attempt(1, "failed") + "]}",
            ].joined(separator: ","))
        #expect(run.outcomes("all") == [.failed, .failed, .passed])
        #expect(run.outcomes("earlier") == [.failed, .passed])
        #expect(run.outcomes("uncounted") == [.failed, .failed])
    }
}
