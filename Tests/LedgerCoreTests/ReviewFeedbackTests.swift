import Foundation
import LedgerCore
import Testing

/// Annotations, the pull-request comment and the check run's output, on values.
@Suite struct ReviewFeedbackTests {
    let run = (id: "run-9", project: "Shop", branch: Optional("feature"), revision: Optional("abc"), configuration: "")
    let paths = RepositoryPaths(root: "/home/ci/shop", topLevel: ["Sources", "Tests", "Package.swift"])

    func report(_ failing: [RunReport.Failing], tests: Int? = nil, quarantine: [QuarantinedTest] = []) -> RunReport {
        RunReport.classify(
            run: run, tests: tests ?? failing.count, failing: failing, passed: [],
            base: ("main", .init(branch: "main", runs: 3, everFailed: ["A/onBase"], newestFailed: ["A/onBase"])),
            flaky: [], quarantine: quarantine)
    }

    /// Undoes the workflow-command escaping, as the runner does.
    func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "%0D", with: "\r").replacingOccurrences(of: "%0A", with: "\n")
            .replacingOccurrences(of: "%3A", with: ":").replacingOccurrences(of: "%2C", with: ",")
            .replacingOccurrences(of: "%25", with: "%")
    }

    @Test func hostileNamesAndMessagesStayInsideOneCommand() throws {
        let test = "A/test(\"a,b: 100%\")\r\n::add-mask::x"
        let message = "expected 50%25 got 100%\r\n::error::forged, line 2"
        let failing = RunReport.Failing(test: test, message: message, file: "Tests/A, B:C%.swift", line: 7)
        let (placed, unplaced) = FailureAnnotation.of(report([failing]), place: paths.path)
        #expect(unplaced == 0)
        let line = WorkflowCommands.command(try #require(placed.first))
        #expect(!line.contains("\n") && !line.contains("\r"))
        #expect(
            line == "::error file=Tests/A%2C B%3AC%25.swift,line=7,title=New failure%3A A/test(\"a%2Cb%3A 100%25\")"
                + "%0D%0A%3A%3Aadd-mask%3A%3Ax::expected 50%2525 got 100%25%0D%0A::error::forged, line 2%0A"
                + "never failed on main before")
        // The runner splits properties at `,` and the message at the first `::`: each part reads back whole.
        let afterLevel = line.dropFirst("::error ".count)
        let separator = try #require(afterLevel.range(of: "::"))
        let properties = afterLevel[..<separator.lowerBound].split(separator: ",").map(String.init)
        #expect(properties.count == 3)
        #expect(unescaped(String(properties[0].dropFirst("file=".count))) == "Tests/A, B:C%.swift")
        #expect(unescaped(String(properties[2].dropFirst("title=".count))) == "New failure: " + test)
        #expect(unescaped(String(afterLevel[separator.upperBound...])) == message + "\nnever failed on main before")
    }

    @Test func levelsFollowWhatTheFailureMeansAndGitHubsLimitIsCounted() {
        var failing = (0..<12).map { (index: Int) in
            RunReport.Failing(test: "A/new\(index)", message: "x", file: "Tests/A.swift", line: index)
        }
        failing.append(
            .init(test: "A/onBase", message: "y", file: "/Users/runner/work/Shop/Shop/Tests/B.swift", line: 3))
        failing.append(.init(test: "A/muted", message: "z", file: "Tests/C.swift", line: 4))
        failing.append(.init(test: "A/nowhere", message: "w"))
        failing.append(.init(test: "A/elsewhere", message: "v", file: "/opt/vendor/Lib.swift", line: 1))
        let muted = QuarantinedTest(project: "Shop", test: "A/muted", mode: .mute, reason: "flaky", by: "ana", since: 0)
        let (placed, unplaced) = FailureAnnotation.of(report(failing, quarantine: [muted]), place: paths.path)
        #expect(unplaced == 2)
        #expect(placed.map(\.level) == Array(repeating: .error, count: 13) + [.notice])
        let onBase = placed.first { $0.test == "A/onBase" }
        #expect(onBase?.path == "Tests/B.swift" && onBase?.title == "Failing on main too: A/onBase")
        #expect(placed.last?.title == "Muted: A/muted")
        let (commands, untold) = WorkflowCommands.lines(placed, unplaced: unplaced)
        #expect(commands.count == 11)
        #expect(commands.filter { $0.hasPrefix("::error ") }.count == 10)
        #expect(commands.last?.hasPrefix("::notice file=Tests/C.swift,line=4,") == true)
        #expect(
            untold == "11 of 16 failure(s) marked on their lines; not marked: 3 beyond GitHub's 10 of a kind per step, "
                + "2 with no file recorded")
    }

    @Test func placesFromAnotherMachineLandInTheRepository() {
        #expect(paths.path("/home/ci/shop/Tests/AppTests/LoginTests.swift") == "Tests/AppTests/LoginTests.swift")
        #expect(
            paths.path("/Users/runner/work/Shop/Shop/Tests/AppTests/LoginTests.swift")
                == "Tests/AppTests/LoginTests.swift")
        #expect(paths.path("./Tests/A.swift") == "Tests/A.swift")
        #expect(paths.path("/usr/lib/swift/XCTest.swift") == nil)

        // Where the checkout is at hand, a place counts only where it has the file.
        let checkout: Set = ["Packages/Core/Tests/A.swift", "Tests/B.swift"]
        let paths = RepositoryPaths(root: "/home/ci/shop", topLevel: ["Packages", "Tests"])
        #expect(
            paths.existing("/Users/runner/work/Shop/Shop/Packages/Core/Tests/A.swift", exists: checkout.contains)
                == "Packages/Core/Tests/A.swift")
        #expect(
            paths.existing("/Users/runner/work/Shop/Shop/Tests/B.swift", exists: checkout.contains) == "Tests/B.swift")
        #expect(paths.existing("Swift/ContiguousArrayBuffer.swift", exists: checkout.contains) == nil)
    }

    @Test func anIssueOutsideTheRepositoryIsMarkedWhereItsTestIsDeclared() {
        let checkout: Set = ["Tests/CartTests.swift"]
        let crashed = RunReport.Failing(
            test: "A/crash", message: "Fatal error: Index out of range", file: "Swift/ContiguousArrayBuffer.swift",
            line: 600, declared: .init(file: "/Users/runner/work/Shop/Shop/Tests/CartTests.swift", line: 31))
        let unknownLine = RunReport.Failing(test: "A/whole", message: "x", file: "Tests/CartTests.swift")
        let (placed, unplaced) = FailureAnnotation.of(report([crashed, unknownLine])) {
            paths.existing($0, exists: checkout.contains)
        }
        #expect(unplaced == 0)
        #expect(placed.map { "\($0.path):\($0.line ?? 0)" } == ["Tests/CartTests.swift:31", "Tests/CartTests.swift:0"])
        #expect(WorkflowCommands.command(placed[1]).hasPrefix("::error file=Tests/CartTests.swift,title=New failure"))
    }

    @Test func aTitleKeepsToGitHubsLength() {
        let failing = RunReport.Failing(
            test: "A/" + String(repeating: "t", count: 400), message: nil, file: "Tests/A.swift")
        let placed = FailureAnnotation.of(report([failing]), place: paths.path).placed
        #expect(placed.first?.title.count == FailureAnnotation.titleLength)
    }

    @Test func theCommentStaysUnderGitHubsLimitAtTenThousandFailures() {
        let failing = (0..<10_000).map {
            RunReport.Failing(
                test: "Shop.CheckoutFlowTests/test_\($0)_" + String(repeating: "long", count: 40),
                message: String(repeating: "expected \($0) ", count: 30))
        }
        let body = ReviewComment.body(report(failing), dashboard: URL(string: "https://ledger.example"))
        #expect(body.utf8.count <= ReviewComment.limit)
        #expect(body.hasPrefix(ReviewComment.marker(project: "Shop", configuration: "") + "\n"))
        #expect(body.contains("### TestLedger: 10000 failure(s) in 10000 tests: 10000 new"))
        #expect(body.contains("… and 9980 more failures."))
        #expect(body.hasSuffix("[The run on the dashboard](https://ledger.example/projects/Shop/runs/run-9)"))
    }

    @Test func theCommentSaysWhyAKnownFlakyTestFails() throws {
        let brief = try JSONDecoder().decode(
            CulpritReport.Brief.self,
            from: Data(
                #"""
                {"verdict": "suspects", "failingAttempts": 6, "passingAttempts": 20, "suspect": {
                  "kind": "predicate", "name": "eventually(spinner gone)", "score": 0.9, "p": 0.001,
                  "evidence": "timed out in 6 of 6 failing attempts and 1 of 20 passing",
                  "failing": {"count": 6, "of": 6}, "passing": {"count": 1, "of": 20},
                  "precision": 0.86, "recall": 1}}
                """#.utf8))
        var flaky = report([.init(test: "A/flaky", message: "spinner still shown")])
        flaky.failures[0].verdict = .knownFlaky
        flaky.failures[0].culprit = brief
        let body = ReviewComment.body(flaky, dashboard: nil)
        #expect(
            body.hasSuffix(
                "**Why the known flaky tests fail**\n\n- `A/flaky`: likely `eventually(spinner gone)` (predicate): "
                    + "timed out in 6 of 6 failing attempts and 1 of 20 passing"), "\(body)")
    }

    @Test func aHugeTestNameIsCutToFit() {
        let name = "A/" + String(repeating: "é", count: 100_000)
        let body = ReviewComment.body(report([.init(test: name, message: "x")]), dashboard: nil)
        #expect(body.utf8.count <= ReviewComment.limit)
        #expect(body.hasSuffix("`testledger report run run-9` has it all."))
        #expect(ReviewComment.isMarked(body, by: ReviewComment.marker(project: "Shop", configuration: "")))
    }

    @Test func theMarkerCannotBeClosedByANameNorConfusedWithAnother() {
        let marker = ReviewComment.marker(project: "a --> <b>", configuration: "iOS\n18")
        #expect(marker.hasPrefix("<!-- testledger-comment: ") && marker.hasSuffix(" -->"))
        #expect(marker.dropFirst(4).dropLast(3).range(of: "--") == nil)
        #expect(!marker.dropLast(3).contains(">") && !marker.contains("\n"))
        #expect(
            ReviewComment.marker(project: "a b", configuration: "c")
                != ReviewComment.marker(project: "a", configuration: "b c"))
        let ours = ReviewComment.marker(project: "Shop", configuration: "ios")
        #expect(ReviewComment.isMarked(ours + "\r\n### TestLedger: edited on the web", by: ours))
        #expect(!ReviewComment.isMarked(ours + "x\n", by: ours))
        #expect(
            !ReviewComment.isMarked("<!-- testledger-comment: Shop  -->x", by: "<!-- testledger-comment: Shop  -->"))
    }

    @Test func aPassingRunsCommentIsOneLine() {
        let passing = ReviewComment.passing(report([], tests: 40), dashboard: nil)
        #expect(passing.split(separator: "\n").count == 2)
        #expect(passing.hasSuffix("\n### TestLedger: no failures in 40 tests"))
    }

    @Test func checkRunAnnotationsGoFiftyARequestAndMutedFailuresSucceed() {
        let failing = (0..<120).map { (index: Int) in
            RunReport.Failing(test: "A/t\(index)", message: "x", file: "Tests/A.swift", line: index)
        }
        let failed = report(failing + [.init(test: "A/nowhere", message: nil)])
        let (placed, unplaced) = FailureAnnotation.of(failed, place: paths.path)
        let output = CheckRunOutput(failed, annotations: placed, unplaced: unplaced, dashboard: nil)
        #expect(output.batches.map(\.count) == [50, 50, 20])
        #expect(output.conclusion == "failure")
        #expect(output.summary.contains("120 of 121 failure(s) annotated; 1 not"))
        #expect(placed.first.map { $0.level.checkRunLevel } == "failure")

        let muted = QuarantinedTest(project: "Shop", test: "A/t0", mode: .mute, reason: "flaky", by: "ana", since: 0)
        let quiet = report([failing[0]], quarantine: [muted])
        let annotated = FailureAnnotation.of(quiet, place: paths.path).placed
        #expect(CheckRunOutput(quiet, annotations: annotated, unplaced: 0, dashboard: nil).conclusion == "success")
        #expect(annotated.map(\.level.checkRunLevel) == ["notice"])
        #expect(
            CheckRunOutput(report([], tests: 3), annotations: [], unplaced: 0, dashboard: nil).conclusion == "success")
    }
}
