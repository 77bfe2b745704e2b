import LedgerCore

/// Works out the attempts one `<testcase>` stands for, with their outcomes and issues.
///
/// Surefire writes retries inside the testcase: each `flakyFailure`/`flakyError` is an attempt
/// that failed before the final, passing one; after a first `<failure>`/`<error>` each
/// `rerunFailure`/`rerunError` is another failing attempt. So the attempts are the flaky ones,
/// then the testcase's own result, then the reruns.
enum JUnitAttemptPlanner {
    /// The attempts of `testcase`, in the order they ran.
    static func attempts(of testcase: JUnitTestcase, classname: String, name: String)
        -> [JUnitAttempt]
    {
        let locate = { (element: JUnitResultElement) in
            JUnitIssueLocator.locate(
                in: [element.message ?? "", element.text], classname: classname, name: name)
        }
        let retry = { (element: JUnitResultElement) in
            JUnitAttempt(
                outcome: element.isError ? .error : .failed,
                duration: JUnitDuration.parse(element.time),
                issues: [issue(from: element, location: locate(element))],
                message: element.output.combined)
        }
        let flaky = testcase.retries.filter(\.isFlaky).map(retry)
        let reruns = testcase.retries.filter(\.isRerun).map(retry)
        return flaky + [main(testcase, locate: locate)] + reruns
    }

    private static func main(
        _ testcase: JUnitTestcase, locate: (JUnitResultElement) -> (file: String, line: Int)?
    ) -> JUnitAttempt {
        var attempt = JUnitAttempt(
            outcome: .passed, duration: JUnitDuration.parse(testcase.time))
        if testcase.hasFailure {
            attempt.outcome = .failed
        } else if !testcase.problems.isEmpty {
            attempt.outcome = .error
        } else if let skip = testcase.skipped {
            attempt.outcome = skip.type == "pytest.xfail" ? .expectedFailure : .skipped
            attempt.message = JUnitText.nonBlank(skip.message) ?? JUnitText.firstLine(of: skip.text)
            return attempt
        } else if testcase.isSkippedByAttribute {
            attempt.outcome = .skipped
            return attempt
        }
        attempt.issues = testcase.problems.map { issue(from: $0, location: locate($0)) }
        if testcase.problemsLeftOut > 0 {
            let message = "(\(testcase.problemsLeftOut) more failures or errors not kept)"
            attempt.issues.append(JUnitAttempt.Issue(message: message, kind: .error))
        }
        if attempt.outcome != .passed { attempt.message = testcase.output.combined }
        return attempt
    }

    /// The issue an element reports: its `message` attribute, else the first line of its
    /// text, else its `type`, else the element's name.
    private static func issue(from element: JUnitResultElement, location: (file: String, line: Int)?)
        -> JUnitAttempt.Issue
    {
        let message =
            JUnitText.nonBlank(element.message) ?? JUnitText.firstLine(of: element.text)
            ?? JUnitText.nonBlank(element.type) ?? element.element.rawValue
        var kept = JUnitTextBuffer(keep: .head(JUnitTextBuffer.failureTextLimit))
        kept.append(message)
        return JUnitAttempt.Issue(
            message: kept.truncated ? kept.result + "…" : kept.result, kind: element.isError ? .error : .assertion,
            file: location?.file, line: location?.line)
    }
}
