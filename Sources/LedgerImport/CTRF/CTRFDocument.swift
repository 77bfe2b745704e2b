import Foundation
import LedgerCore

/// A run as a Common Test Report Format (CTRF) report: each test's final attempt, the attempts
/// before it as `retryAttempts`, and TestLedger's own verdict on each failure under
/// `extra.testledger`. `ingest` reads it back to the same tests and statuses.
public struct CTRFDocument: Encodable, Sendable {
    public var reportFormat = "CTRF"
    public var specVersion = "0.2.0"
    /// The run's id.
    public var reportId: String
    /// When the run started, RFC 3339.
    public var timestamp: String
    public var generatedBy: String
    public var results: Results

    public struct Results: Encodable, Sendable {
        public var tool: Tool
        public var summary: Summary
        public var tests: [Test]
        public var environment: Environment
    }

    public struct Tool: Encodable, Sendable {
        /// What produced the run (`swift-test`, `junit`, `bacon`…).
        public var name: String
    }

    public struct Summary: Encodable, Sendable {
        public var tests: Int
        public var passed: Int
        public var failed: Int
        public var skipped: Int
        public var pending = 0
        public var other: Int
        public var flaky: Int
        /// Milliseconds since 1970.
        public var start: Int64
        public var stop: Int64
    }

    public struct Environment: Encodable, Sendable {
        public var branchName: String?
        public var commit: String?
        public var testEnvironment: String?
        public var extra: [String: String]
    }

    public struct Test: Encodable, Sendable {
        public var name: String
        public var status: String
        /// Milliseconds.
        public var duration: Int64
        public var start: Int64
        public var stop: Int64
        public var suite: [String]?
        public var message: String?
        public var trace: String?
        public var rawStatus: String?
        public var filePath: String?
        public var line: Int?
        public var retries: Int?
        public var flaky: Bool?
        public var retryAttempts: [Attempt]?
        public var extra: Extra?
    }

    public struct Attempt: Encodable, Sendable {
        public var attempt: Int
        public var status: String
        public var duration: Int64
        public var message: String?
        public var trace: String?
        public var start: Int64
        public var stop: Int64
    }

    /// TestLedger's own words on a test.
    public struct Extra: Encodable, Sendable {
        public var testledger: Verdict
    }

    public struct Verdict: Encodable, Sendable {
        /// The test's stable id.
        public var id: String
        /// `report run`'s verdict on a failure: `new`, `known-flaky`…
        public var verdict: String?
        public var evidence: String?
        public var owners: [String]?
        public var culprit: String?
    }

    /// The report of `run`, from its attempts.
    ///
    /// - Parameters:
    ///   - report: the run's `report run`, for its identity, its branch, revision and configuration,
    ///     and the verdicts on its failures.
    ///   - attempts: every attempt of the run, by test and then attempt.
    ///   - source: what produced the run.
    ///   - start: when the run started, in seconds since 1970.
    public init(
        _ report: RunReport, attempts: [RecordedAttempt], source: String, start: Double
    ) {
        let failures = Dictionary(report.failures.map { ($0.test, $0) }, uniquingKeysWith: { first, _ in first })
        var tests: [Test] = []
        var index = attempts.startIndex
        while index < attempts.endIndex {
            let test = attempts[index].test
            let end = attempts[index...].firstIndex { $0.test != test } ?? attempts.endIndex
            tests.append(Self.test(Array(attempts[index..<end]), failure: failures[test]))
            index = end
        }
        let stop = attempts.map { $0.startedAt + ($0.duration ?? 0) }.max() ?? start
        reportId = report.run
        timestamp = iso8601(start)
        generatedBy = "testledger \(TestLedgerVersion.current)"
        results = Results(
            tool: Tool(name: source),
            summary: Summary(
                tests: tests.count, passed: tests.count { $0.status == "passed" },
                failed: tests.count { $0.status == "failed" }, skipped: tests.count { $0.status == "skipped" },
                other: tests.count { $0.status == "other" }, flaky: tests.count { $0.flaky == true },
                start: Self.milliseconds(start), stop: Self.milliseconds(max(stop, start))),
            tests: tests,
            environment: Environment(
                branchName: report.branch, commit: report.revision,
                testEnvironment: report.configuration.isEmpty ? nil : report.configuration,
                extra: ["project": report.project]))
    }

    /// One test: its last attempt, and those before it.
    static func test(_ attempts: [RecordedAttempt], failure: RunReport.Failure?) -> Test {
        let final = attempts[attempts.count - 1]
        let status = status(final.outcome)
        // `suite/name` becomes suite and name, which `ingest` joins back; any other id is the name.
        let named = final.suite.flatMap { suite in final.name.map { (suite, $0) } }
            .flatMap { $0.0 + "/" + $0.1 == final.test ? $0 : nil }
        let earlier = attempts.dropLast().map { attempt in
            Attempt(
                attempt: attempt.attempt, status: Self.status(attempt.outcome),
                duration: milliseconds(attempt.duration ?? 0), message: attempt.message, trace: attempt.detail,
                start: milliseconds(attempt.startedAt),
                stop: milliseconds(attempt.startedAt + (attempt.duration ?? 0)))
        }
        return Test(
            name: named?.1 ?? final.test, status: status, duration: milliseconds(final.duration ?? 0),
            start: milliseconds(final.startedAt), stop: milliseconds(final.startedAt + (final.duration ?? 0)),
            suite: named.map { [$0.0] }, message: final.message ?? (status == "skipped" ? final.detail : nil),
            trace: status == "failed" ? final.detail : nil,
            rawStatus: final.outcome.map(\.rawValue) ?? "crashed", filePath: final.file, line: final.line,
            retries: earlier.isEmpty ? nil : earlier.count,
            flaky: earlier.isEmpty ? nil : status == "passed" && earlier.contains { $0.status == "failed" },
            retryAttempts: earlier.isEmpty ? nil : earlier,
            extra: Extra(
                testledger: Verdict(
                    id: final.test, verdict: failure?.verdict.rawValue, evidence: failure?.evidence,
                    owners: failure?.owners.flatMap { $0.isEmpty ? nil : $0 },
                    culprit: failure?.culprit.flatMap(CulpritRendering.likely))))
    }

    /// CTRF's status: an error or a crash is a failure (its own name is kept in `rawStatus`), an
    /// expected failure a pass, an attempt that never ended a failure.
    static func status(_ outcome: Outcome?) -> String {
        switch outcome {
        case .passed, .expectedFailure: "passed"
        case .skipped: "skipped"
        case .failed, .error, .crashed, nil: "failed"
        }
    }

    static func milliseconds(_ seconds: Double) -> Int64 {
        seconds.isFinite ? Int64((seconds * 1000).rounded()) : 0
    }
}
