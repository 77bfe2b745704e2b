import Foundation
import LedgerTestSupport
import Testing

/// `github comment`, `gitlab note`, `record --github-comment --check-run` and the annotations,
/// against a stand-in of the code hosts' APIs on 127.0.0.1. No real GitHub is reached.
@Suite struct GitHubFeedbackCommandTests {
    static let marker = "<!-- testledger-comment: Shop  -->"

    /// A JUnit file of App.Cart's tests, `failing` failed, declared in `file`.
    func junit(_ cli: CLI, _ name: String, failing: [String], file: String = "Tests/AppTests/CartTests.swift")
        throws -> URL
    {
        let cases = ["tax", "total", "refund"].enumerated().map { index, test in
            let head = #"<testcase classname="App.Cart" name="\#(test)" file="\#(file)" line="\#(10 + index)""#
            return failing.contains(test)
                ? head + #"><failure message="\#(test) is off by one"/></testcase>"# : head + "/>"
        }
        return try cli.directory.write(name, #"<testsuite name="s">"# + cases.joined() + "</testsuite>")
    }

    /// The environment of a pull request's job, its API at `api`.
    func job(_ cli: CLI, api: String, pullRequest: Int = 7) throws -> [String: String] {
        let event = try cli.directory.write(
            "event.json", #"{"pull_request": {"number": \#(pullRequest), "head": {"sha": "f00dfeed"}}}"#)
        return [
            "GITHUB_API_URL": api, "GITHUB_REPOSITORY": "acme/shop", "GITHUB_TOKEN": "ghs_stand_in",
            "GITHUB_EVENT_PATH": event.path, "GITHUB_SHA": "merge0", "GITHUB_BASE_REF": "main",
        ]
    }

    func ingest(_ cli: CLI, _ file: URL, branch: String) async throws {
        let ingested = try await cli.run(["ingest", "--project", "Shop", "--branch", branch, file.path])
        #expect(ingested.status == 0, "\(ingested.stderr)")
    }

    @Test func oneCommentIsCreatedThenEditedInPlace() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try await ingest(cli, try junit(cli, "main.xml", failing: []), branch: "main")
        try await ingest(cli, try junit(cli, "push1.xml", failing: ["tax"]), branch: "feature")
        let host = StandInCodeHost(comments: ["Looks good to me"])
        try await host.serve { api in
            let environment = try job(cli, api: api)
            let first = try await cli.run(["github", "comment"], environment: environment)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(first.stderr.contains("testledger: commented on pull request #7 of acme/shop"), "\(first.stderr)")
            let again = try await cli.run(["github", "comment"], environment: environment)
            #expect(again.stderr.contains("is up to date"), "\(again.stderr)")
            // A later push fixes one test and breaks another: the same comment is edited.
            try await ingest(cli, try junit(cli, "push2.xml", failing: ["total"]), branch: "feature")
            let later = try await cli.run(["github", "comment"], environment: environment)
            #expect(later.stderr.contains("updated the comment on pull request #7"), "\(later.stderr)")
        }
        #expect(
            await host.changes == [
                "POST /repos/acme/shop/issues/7/comments", "PATCH /repos/acme/shop/issues/comments/101",
            ])
        #expect(await host.requests.allSatisfy { $0.authorization == "Bearer ghs_stand_in" })
        let comments = await host.comments
        #expect(comments.count == 2 && comments[0].body == "Looks good to me")
        let ours = comments[1].body
        #expect(ours.hasPrefix(Self.marker + "\n### TestLedger: 1 failure(s) in 3 tests: 1 new\n"), "\(ours)")
        #expect(ours.contains("| **new** | `App.Cart/total` | never failed on main before | total is off by one |"))
    }

    /// A busy pull request: 150 comments, ours among the second hundred. It is found on the
    /// listing's second page and edited, not posted again; only the issue's listing is read.
    @Test func theCommentIsFoundOnALaterPageOfABusyPullRequest() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try await ingest(cli, try junit(cli, "main.xml", failing: []), branch: "main")
        try await ingest(cli, try junit(cli, "push.xml", failing: ["tax"]), branch: "feature")
        var earlier = (1...150).map { "review remark \($0)" }
        earlier[119] = Self.marker + "\n### TestLedger: 1 failure(s) in 3 tests: 1 new\n|…|"
        let host = StandInCodeHost(comments: earlier)
        try await host.serve { api in
            let posted = try await cli.run(["github", "comment"], environment: try job(cli, api: api))
            #expect(posted.status == 0 && posted.stderr.contains("updated the comment"), "\(posted.stderr)")
        }
        #expect(await host.changes == ["PATCH /repos/acme/shop/issues/comments/120"])
        let listings = await host.requests.filter { $0.method == "GET" }
        #expect(listings.map(\.path) == Array(repeating: "/repos/acme/shop/issues/7/comments", count: 2))
        #expect(listings.map { StandInCodeHost.parameters($0.query)["page"] } == ["1", "2"])
        #expect(await host.comments.count == 150)
    }

    @Test func theStandInRefusesWhatTheServicesRefuse() async throws {
        let host = StandInCodeHost(comments: ["a"])
        let answers = [
            await host.answer("GET", "/repos/acme/shop/pulls/7/comments", "", nil, nil).0,
            await host.answer(
                "PATCH", "/repos/acme/shop/check-runs/1", "", ["output": [:] as [String: any Sendable]], nil
            ).0,
            await host.answer("POST", "/repos/acme/shop/issues/7/comments", "", [:], nil).0,
            await host.answer("PATCH", "/repos/acme/shop/issues/comments/1", "", ["body": "b"], nil).0,
        ]
        #expect(answers == [.notFound, .notFound, .unprocessableContent, .ok])
    }

    @Test func ifFailedPostsNothingForAPassingRunAndTidiesAnEarlierComment() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try await ingest(cli, try junit(cli, "main.xml", failing: []), branch: "main")
        try await ingest(cli, try junit(cli, "green.xml", failing: []), branch: "feature")
        let quiet = StandInCodeHost()
        try await quiet.serve { api in
            let green = try await cli.run(["github", "comment", "--if-failed"], environment: try job(cli, api: api))
            #expect(green.status == 0 && green.stderr.contains("no failures: no comment"), "\(green.stderr)")
        }
        #expect(await quiet.changes.isEmpty)

        let earlier = StandInCodeHost(comments: [Self.marker + "\n### TestLedger: 1 failure(s) in 3 tests: 1 new\n|…|"])
        try await earlier.serve { api in
            let green = try await cli.run(["github", "comment", "--if-failed"], environment: try job(cli, api: api))
            #expect(green.stderr.contains("now says so in one line"), "\(green.stderr)")
        }
        #expect(await earlier.changes == ["PATCH /repos/acme/shop/issues/comments/1"])
        #expect(await earlier.comments.first?.body == Self.marker + "\n### TestLedger: no failures in 3 tests")
    }

    @Test func tenThousandFailuresMakeOneCommentUnderTheLimitAndAnnotationsGoFiftyARequest() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let cases = (0..<10_000).map {
            #"<testcase classname="App.Generated\#($0 % 50)" name="test_\#($0)_\#(String(repeating: "x", count: 60))" "#
                + #"file="/Users/runner/work/shop/shop/Tests/Gen\#($0 % 50).swift" line="\#($0)">"#
                + #"<failure message="case \#($0): \#(String(repeating: "expected ", count: 20))"/></testcase>"#
        }
        try await ingest(
            cli, try cli.directory.write("huge.xml", "<testsuite>" + cases.joined() + "</testsuite>"), branch: "feature"
        )
        for file in 0..<50 { _ = try cli.directory.write("Tests/Gen\(file).swift", "") }
        let host = StandInCodeHost()
        try await host.serve { api in
            var environment = try job(cli, api: api)
            environment["GITHUB_WORKSPACE"] = cli.directory.url.path
            let posted = try await cli.run(["github", "comment", "--check-run"], environment: environment)
            #expect(posted.status == 0, "\(posted.stderr)")
            #expect(posted.stderr.contains("check run 7 (TestLedger, failure) with 1000 annotation(s) on f00dfeed"))
        }
        let requests = await host.requests
        let comment = try #require(requests.first { $0.method == "POST" && $0.path.hasSuffix("/comments") })
        let body = try #require(comment.body?["body"] as? String)
        #expect(body.utf8.count <= 65_536, "\(body.utf8.count) bytes")
        #expect(body.contains("10000 failure(s) in 10000 tests") && body.contains("… and 9980 more failures."))
        let checks = requests.filter { $0.path.contains("/check-runs") }
        #expect(checks.map(\.method) == ["POST"] + Array(repeating: "PATCH", count: 19))
        let created = try #require(checks.first?.body)
        #expect(created["head_sha"] as? String == "f00dfeed" && created["conclusion"] as? String == "failure")
        let batches = checks.map {
            (($0.body?["output"] as? [String: any Sendable])?["annotations"] as? [any Sendable])?.count
        }
        #expect(batches.allSatisfy { $0 == 50 }, "\(batches)")
        // Every batch landed on the run that was created, as the service keeps it.
        #expect(await host.checkRuns[7]?.annotations == 1_000)
        #expect(checks.dropFirst().allSatisfy { $0.path == "/repos/acme/shop/check-runs/7" })
        let first = try #require(
            ((created["output"] as? [String: any Sendable])?["annotations"] as? [any Sendable])?.first
                as? [String: any Sendable])
        #expect(first["path"] as? String == "Tests/Gen0.swift" && first["start_line"] as? Double == 1)
        #expect(first["annotation_level"] as? String == "failure")
    }

    @Test func aForksReadOnlyTokenOrNoAnswerNeverFailsTheJob() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let results = try junit(cli, "out.xml", failing: ["tax"])
        let host = StandInCodeHost(refusal: .forbidden)
        try await host.serve { api in
            let recorded = try await cli.run(
                [
                    "record", "--project", "Shop", "--branch", "feature", "--github-comment", "--check-run", "--junit",
                    results.path, "--", "true",
                ], environment: try job(cli, api: api))
            // The command's own status stands: the comment and the check run could not fail the job.
            #expect(recorded.status == 0, "\(recorded.stderr)")
            #expect(
                recorded.stderr.contains(
                    "testledger: no comment on pull request #7: GitHub answered HTTP 403: Resource not accessible by "
                        + "integration (a fork's pull request gets a read-only token"), "\(recorded.stderr)")
            #expect(recorded.stderr.contains("testledger: no check run: GitHub answered HTTP 403"))
            let comment = try await cli.run(["github", "comment", "--check-run"], environment: try job(cli, api: api))
            #expect(comment.status == 0 && comment.stderr.contains("HTTP 403"), "\(comment.stderr)")
        }
        let unreachable = try await cli.run(
            ["github", "comment"], environment: try job(cli, api: "http://127.0.0.1:9"))
        #expect(unreachable.status == 0)
        #expect(unreachable.stderr.contains("no comment on pull request #7: GitHub could not be reached"))
        var noToken = try job(cli, api: "http://127.0.0.1:9")
        noToken["GITHUB_TOKEN"] = nil
        let tokenless = try await cli.run(["github", "comment"], environment: noToken)
        #expect(tokenless.status == 0 && tokenless.stderr.contains("GITHUB_TOKEN is not set"), "\(tokenless.stderr)")
    }

    @Test func annotationsMarkTheFailingLinesFromAnotherMachine() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try await ingest(cli, try junit(cli, "main.xml", failing: ["refund"]), branch: "main")
        _ = try cli.directory.write("Tests/AppTests/CartTests.swift", "")
        let results = try junit(
            cli, "out.xml", failing: ["tax", "refund"],
            file: "/Users/runner/work/shop/shop/Tests/AppTests/CartTests.swift")
        let environment = [
            "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": cli.directory.url.path, "GITHUB_BASE_REF": "main",
        ]
        let recorded = try await cli.run(
            ["record", "--project", "Shop", "--branch", "feature", "--junit", results.path, "--", "true"],
            environment: environment)
        let commands = recorded.stdout.split(separator: "\n").filter { $0.hasPrefix("::") }.map(String.init)
        #expect(commands.count == 2, "\(recorded.stdout)")
        #expect(
            commands.first
                == "::error file=Tests/AppTests/CartTests.swift,line=10,title=New failure%3A App.Cart/tax::"
                + "tax is off by one%0Anever failed on main before")
        // The base run's id changes from run to run.
        let onBase = commands.last ?? ""
        #expect(
            onBase.hasPrefix(
                "::error file=Tests/AppTests/CartTests.swift,line=12,title=Failing on main too%3A App.Cart/refund::"
                    + "refund is off by one%0Athe newest main run (") && onBase.hasSuffix(") failed it too"))

        // Beside JSON the commands go to standard error, and standard output stays JSON.
        let json = try await cli.run(["report", "run", "--format", "json"], environment: environment)
        #expect((try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) != nil, "\(json.stdout)")
        #expect(json.stderr.contains("::error file=Tests/AppTests/CartTests.swift,line=10,"))
        let plain = try await cli.run(["report", "run"], environment: [:])
        #expect(!plain.stdout.contains("::error") && !plain.stderr.contains("::error"))
    }

    @Test func aGitLabMergeRequestKeepsOneNote() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try await ingest(cli, try junit(cli, "main.xml", failing: []), branch: "main")
        try await ingest(cli, try junit(cli, "mr.xml", failing: ["total"]), branch: "feature")
        let host = StandInCodeHost()
        try await host.serve { api in
            let environment = [
                "CI_API_V4_URL": api + "/api/v4", "CI_PROJECT_ID": "acme/shop", "CI_MERGE_REQUEST_IID": "12",
                "GITLAB_TOKEN": "glpat-stand-in", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main",
            ]
            for _ in 0..<2 {
                let noted = try await cli.run(["gitlab", "note"], environment: environment)
                #expect(noted.status == 0, "\(noted.stderr)")
            }
            try await ingest(cli, try junit(cli, "mr2.xml", failing: ["tax"]), branch: "feature")
            _ = try await cli.run(["gitlab", "note"], environment: environment)
        }
        #expect(
            await host.changes == [
                "POST /api/v4/projects/acme%2Fshop/merge_requests/12/notes",
                "PUT /api/v4/projects/acme%2Fshop/merge_requests/12/notes/101",
            ])
        #expect(await host.requests.allSatisfy { $0.authorization == "PRIVATE-TOKEN glpat-stand-in" })
        let note = await host.comments.first?.body ?? ""
        #expect(note.contains("1 failure(s) in 3 tests: 1 new") && note.contains("`App.Cart/tax`"), "\(note)")
    }
}
