import AsyncHTTPClient
import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// Every `--format json` output and `/healthz` keep the shape checked in under `Tests/Contracts`:
/// each key path and its types, from a generated history through the built binary. A removed key,
/// a changed type and an added key all fail, so that each change to a contract is made on purpose
/// and named in `CHANGELOG.md`.
@Suite struct JSONContractTests {
    /// One checked-in shape: the file's name and the commands whose outputs it describes together.
    struct Contract: Sendable {
        var name: String
        var commands: [[String]]
        /// Objects whose keys are data rather than contract.
        var maps: Set<String> = []
        /// Recursive values: each element path that repeats another (a step's children's
        /// children), and the path whose shape it joins.
        var folds: [String: String] = [:]
        /// The exit status the commands end with.
        var status: Int32 = 0
    }

    static let newest = "00000000-0000-4000-8000-000000000047"
    /// The planted history's runs, its newest last.
    static let feed = PlantedCulprits(seed: 9, runs: 40, variants: 1)
    /// Tests run side by side (project `Parallel`), older than every other run.
    static let parallel = PlantedParallel(seed: 3, runs: 40, variants: 2, epoch: 1_500_000_000)
    /// The side-by-side tests of the kinds only they show.
    static let parallelCulpritCommands: [[String]] = parallel.tests.compactMap { test in
        guard let cause = test.cause, [.overlappingTest, .load, .coFailure].contains(cause) else { return nil }
        return ["report", "culprit", test.id, "--project", "Parallel", "--runs", "60"]
    }
    /// A test of each planted cause, for a culprit suspect of every kind.
    static let culpritCommands = feed.tests.compactMap { test -> [String]? in
        guard case .cause = test.planted else { return nil }
        return ["report", "culprit", test.id, "--project", "Feed", "--runs", "60"]
    }
    static let contracts: [Contract] = [
        Contract(
            name: "runs",
            commands: [["runs", "--limit", "100"], ["runs", "--project", "Admin"], ["runs", "--project", "Feed"]]),
        Contract(
            name: "report-pyramid",
            commands: [
                ["report", "pyramid", "--project", "Shop"],
                ["report", "pyramid", "--since", "2026-01-01", "--project", "Shop"],
            ]),
        Contract(
            name: "report-flaky",
            commands: [["report", "flaky", "--project", "Shop"], ["report", "flaky", "--project", "Feed"]]),
        Contract(name: "report-slow", commands: [["report", "slow", "--runs", "8", "--project", "Shop"]]),
        Contract(
            name: "report-cost",
            commands: [["report", "cost", "--project", "Shop"], ["report", "cost", "--project", "Feed"]]
        ),
        Contract(
            name: "report-trends",
            commands: [
                ["report", "trends", "--project", "Feed", "--since", "2000-01-01", "--by", "run"],
                ["report", "trends", "--project", "Shop", "--since", "2000-01-01", "--by", "day"],
            ]),
        Contract(
            name: "report-failures",
            commands: [["report", "failures", "--project", "Shop"], ["report", "failures", "--project", "Feed"]]),
        Contract(
            name: "report-culprit",
            commands: [
                [
                    "report", "culprit", "ShopTests.BrokenTests/test1", "--project", "Shop", "--configuration",
                    "iPad / iOS 18",
                ],
                ["report", "culprit", "ShopTests.PassesonretryTests/test1", "--project", "Shop"],
                ["report", "culprit", "ShopTests.StableTests/test0", "--project", "Shop"],
            ] + culpritCommands + parallelCulpritCommands),
        Contract(
            name: "report-failures-clusters",
            commands: [
                ["report", "failures", "--clusters", "--project", "Parallel", "--runs", "40"],
                ["report", "failures", "--clusters", "--project", "Shop"],
            ]),
        Contract(
            name: "report-run",
            commands: [
                ["report", "run", newest], ["report", "run", "00000000-0000-4000-8000-000000000046"],
                ["report", "run", "00000000-0000-4000-8000-000000000043"],
                ["report", "run", selectedRunID],
            ] + feed.runIDs.suffix(12).map { ["report", "run", $0] }),
        Contract(name: "report-selection", commands: [["report", "selection", "--project", "Cart"]]),
        Contract(
            name: "show",
            commands: [
                ["show", "ShopTests.PassesonretryTests/test1"],
                ["show", "ShopTests.BrokenTests/test1", "--run", newest],
                ["show", "ShopTests.StableTests/test3", "--run", "00000000-0000-4000-8000-000000000046"],
            ] + feed.tests.map { ["show", $0.id] } + [["show", feed.tests[0].id, "--run", noiseRunID]],
            maps: ["$.captures[].fields"], folds: ["$.activities[].children[].children[]": "$.activities[].children[]"]),
        Contract(name: "quarantine-list", commands: [["quarantine", "list", "--project", "Shop"]]),
        Contract(name: "quarantine-log", commands: [["quarantine", "log", "--project", "Shop"]]),
        Contract(
            name: "shard-plan",
            commands: [
                ["shard", "plan", "--shards", "3", "--project", "Shop"],
                ["shard", "plan", "--shards", "2", "--by", "suite", "--project", "Feed"],
            ]),
        Contract(
            name: "shard-replay", commands: [["shard", "plan", "--shards", "3", "--replay", "--project", "Shop"]]),
        Contract(
            name: "status",
            commands: [
                [
                    "status", "ShopTests.StableTests/test0", "ShopTests.PassesonretryTests/test1",
                    "ShopTests.BrokenTests/test1", "ShopTests.FailsaquarterTests/test0", "ShopTests.Nope/test0",
                    "--project", "Shop",
                ]
            ], status: 11),
    ]

    /// The keys whose values are a fixed set: renaming or removing a value breaks readers as a key would.
    static let enumerations: Set<String> = [
        "verdict", "kind", "status", "layer", "mode", "action", "outcome", "standing", "quarantined",
    ]

    /// Where the checked-in shapes are.
    static let folder = CLI.packageRoot.appending(path: "Tests/Contracts")

    /// `TESTLEDGER_RECORD_SHAPES=1` writes the shapes instead of comparing them.
    static let recording = ProcessInfo.processInfo.environment["TESTLEDGER_RECORD_SHAPES"] == "1"

    @Test func everyJSONOutputKeepsItsShape() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try await Self.history(cli)
        for contract in Self.contracts {
            var shape = JSONShape(maps: contract.maps, folds: contract.folds, enumerations: Self.enumerations)
            for command in contract.commands {
                let output = try await cli.run(command + ["--format", "json"])
                #expect(output.status == contract.status, "\(command): \(output.stderr)")
                shape.add(try #require(JSONValue(jsonText: output.stdout), "\(command) printed \(output.stdout)"))
            }
            let header = contract.commands.map { "testledger " + $0.joined(separator: " ") + " --format json" }
            try Self.compare(shape, contract.name, header)
        }
    }

    @Test func healthzKeepsItsShape() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let server = try ServerProcess(cli)
        defer { server.stop() }
        var request = HTTPClientRequest(url: server.url + "/healthz")
        request.headers.add(name: "Accept", value: "application/json")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let body = String(buffer: try await response.body.collect(upTo: 1 << 20))
        #expect(response.status == .ok)
        let health = try #require(JSONValue(jsonText: body), "\(body)")
        #expect(health == ["status": "ok", "version": .string(TestLedgerVersion.current)])
        var shape = JSONShape()
        shape.add(health)
        try Self.compare(shape, "healthz", ["GET /healthz with Accept: application/json"])

        let plain = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: server.url + "/healthz"), timeout: .seconds(60))
        #expect(String(buffer: try await plain.body.collect(upTo: 1 << 20)) == "ok\n")
    }

    @Test func versionIsTheOneConstantAndTheChangelogHasItsSection() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        let version = try await cli.run(["--version"])
        #expect(version.status == 0, "\(version.stderr)")
        #expect(version.stdout == TestLedgerVersion.current + "\n")
        let changelog = try String(contentsOf: CLI.packageRoot.appending(path: "CHANGELOG.md"), encoding: .utf8)
        #expect(changelog.contains("\n## \(TestLedgerVersion.current)\n"), "CHANGELOG.md has no section for it")
    }

    @Test func aShapeNamesWhatItNeverSawFilledFoldsStepsAndPinsEnumeratedValues() {
        var shape = JSONShape()
        shape.add(["lost": [], "kept": [1], "note": nil, "both": nil])
        shape.add(["lost": [], "kept": [], "both": "x"])
        #expect(shape.unfilled == ["$.lost", "$.note"])
        // Steps in steps: the children's children take the children's shape.
        var tree = JSONShape(folds: ["$.steps[].children[].children[]": "$.steps[].children[]"])
        tree.add(["steps": [["name": "a", "children": [["name": "b", "children": [["name": "c", "children": []]]]]]]])
        #expect(tree.unfilled.isEmpty)
        #expect(tree.lines.contains("$.steps[].children[].name: string"))
        #expect(tree.lines.contains("$.steps[].children[].children: array"))
        #expect(!tree.lines.contains { $0.hasPrefix("$.steps[].children[].children[]") })
        // An enumerated key's values are part of the shape: a renamed value is a change.
        var kinds = JSONShape(enumerations: ["kind"])
        kinds.add(["suspects": [["kind": "host"], ["kind": "preceding-test"]]])
        #expect(kinds.lines.contains("$.suspects[].kind: string = host|preceding-test"))
        let renamed = ["$: object", "$.suspects: array", "$.suspects[]: object"]
        #expect(
            kinds.differences(from: renamed + ["$.suspects[].kind: string = host|previous-test"])
                == ["`$.suspects[].kind` was `string = host|previous-test`, is now `string = host|preceding-test`"])
    }

    @Test func aShapeNamesWhatChanged() throws {
        var shape = JSONShape(maps: ["$.fields"])
        shape.add(["recovered": ["A/a"], "runs": 3, "fields": ["any": true]])
        shape.add(["recovered": [["test": "A/a"]], "runs": 4, "note": "x", "fields": ["other": 1]])
        #expect(
            shape.lines == [
                "$: object", "$.fields: object", "$.fields.*: bool|number", "$.note: optional string",
                "$.recovered: array", "$.recovered[]: object|string", "$.recovered[].test: string",
                "$.runs: number",
            ])
        let changes = shape.differences(from: [
            "# a comment", "$: object", "$.fields: object", "$.fields.*: bool|number", "$.recovered: array",
            "$.recovered[]: string", "$.runs: number", "$.gone: string",
        ])
        #expect(
            changes == [
                "`$.gone` was `string` and is gone (a removed key)",
                "`$.note` is new: `optional string` (an added key)",
                "`$.recovered[]` was `string`, is now `object|string`",
                "`$.recovered[].test` is new: `string` (an added key)",
            ])
    }

    /// Compares `shape` with the checked-in `NAME.shape`, or writes it, headed by `sources` (what
    /// the shape was read from), when recording.
    static func compare(_ shape: JSONShape, _ name: String, _ sources: [String]) throws {
        let file = folder.appending(path: "\(name).shape")
        if recording {
            try (sources.map { "# " + $0 } + shape.lines).joined(separator: "\n").appending("\n").write(
                to: file, atomically: true, encoding: .utf8)
            return
        }
        #expect(
            shape.unfilled.isEmpty,
            "\(name): \(shape.unfilled.joined(separator: ", ")) never held a value: make the fixture history fill them")
        let expected = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        let changes = shape.differences(from: expected.split(separator: "\n").map(String.init))
        #expect(
            changes.isEmpty,
            """
            \(name): the JSON contract changed shape:
            \(changes.map { "- " + $0 }.joined(separator: "\n"))
            The JSON is a public contract whose keys are only ever added (README, JSON). If this \
            change is deliberate, edit Tests/Contracts/\(name).shape (TESTLEDGER_RECORD_SHAPES=1 \
            rewrites every shape) and name the change in CHANGELOG.md under Unreleased; a key that \
            changed type or went away needs a new key instead.
            """)
    }

    /// A generated history of 48 runs (some of its fixed tests recovered) with owners, a quarantined
    /// test and a culprit, and a planted one of 40 runs (project `Feed`: a suspect of every kind,
    /// runs lost to flaky tests, runs cut short) with one run of infrastructure noise, and 40 runs
    /// of tests run side by side (project `Parallel`), ingested into `cli`'s ledger.
    static func history(_ cli: CLI) async throws {
        try cli.directory.write(".github/CODEOWNERS", "*  @acme/shop\n")
        try cli.directory.write("Tests/.keep", "")
        var files = try GeneratedHistory.files(runs: 48) + feed.files() + [noiseRun()] + selectionRuns()
        files += parallel.files(project: "Parallel")
        let paths = try files.enumerated().map { index, text in
            try cli.directory.write(String(format: "run%02d.jsonl", index), text).path
        }
        let ingested = try await cli.run(["ingest"] + paths)
        #expect(ingested.status == 0, "\(ingested.stderr)")
        let added = try await cli.run([
            "quarantine", "add", "ShopTests.FailsaquarterTests/test0", "--reason", "flaky on CI", "--by", "ci",
            "--project", "Shop", "--until", "2099-01-01",
        ])
        #expect(added.status == 0, "\(added.stderr)")
    }

    static let noiseRunID = "00000000-0000-4000-9000-999999999999"
    static let selectedRunID = "00000000-0000-4000-a000-000000000002"

    /// Three `Cart` runs of `record --select`: one that ran both targets and vouches for them, one
    /// that left CartTests out, and one that observed, in which a CartTests test failed.
    static func selectionRuns() -> [String] {
        let runs = ["00000000-0000-4000-a000-000000000001", selectedRunID, "00000000-0000-4000-a000-000000000003"]
        return runs.enumerated().map { index, run in
            let start = 1_600_000_000 + Double(index) * 3_600
            var lines = [
                GeneratedHistory.line(
                    "run.start", run, start,
                    [
                        "project": "Cart", "source": "swift-test", "revision": .string("c0ffee\(index)"),
                        "branch": "main",
                    ])
            ]
            for (offset, test) in ["CartTests.CartTests/testTotal", "PaymentsTests.PaymentsTests/charges()"]
                .enumerated()
            {
                let leftOut = index == 1 && offset == 0
                let failed = index == 2 && offset == 0
                let end: [String: JSONValue] = [
                    "test": .string(test), "attempt": 1,
                    "outcome": .string(leftOut ? "skipped" : failed ? "failed" : "passed"),
                    "duration": .number(leftOut ? 0 : 2), "message": leftOut ? "not-affected" : nil,
                ]
                lines.append(
                    GeneratedHistory.line("test.start", run, start + 1, ["test": .string(test), "attempt": 1]))
                lines.append(GeneratedHistory.line("test.end", run, start + 3, end.compactMapValues { $0 }))
            }
            for (target, passed) in [("CartTests", index == 0 ? 1 : 0), ("PaymentsTests", 1)] {
                var fields: [String: JSONValue] = [
                    "target": .string(target), "hash": .string("hash-\(target)"), "tests": 1,
                    "passed": .number(Double(passed)),
                ]
                if index > 0, target == "CartTests" { fields["vouchedBy"] = .string(runs[0]) }
                if index == 1, target == "CartTests" { fields["skipped"] = true }
                lines.append(GeneratedHistory.line("target", run, start + 4, fields))
            }
            lines.append(GeneratedHistory.line("run.end", run, start + 5, ["outcome": "finished"]))
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// A `Feed` run among the newest planted ones, from a CI build, in which every test failed
    /// with a bare `failed` (the simulator never booted), and whose runner printed its totals.
    static func noiseRun() -> String {
        let run = noiseRunID
        let start = (feed.runInfo.dropLast(4).last?.start ?? 0) + 1_800
        let ci: JSONValue = ["provider": "github-actions", "build": "1234"]
        var lines = [
            GeneratedHistory.line(
                "run.start", run, start, ["project": "Feed", "source": "xctest", "host": "mac-2", "ci": ci])
        ]
        for (index, test) in feed.tests.enumerated() {
            let at = start + Double(index)
            let attempt: [String: JSONValue] = ["test": .string(test.id), "attempt": 1]
            func with(_ fields: [String: JSONValue]) -> [String: JSONValue] { attempt.merging(fields) { $1 } }
            lines.append(GeneratedHistory.line("test.start", run, at, attempt))
            // Steps three deep, so that a step's children's children are read.
            for (depth, name) in ["Boot", "Start the simulator", "Wait for launch"].enumerated() where index == 0 {
                var step = with(["activity": .string("boot\(depth)"), "name": .string(name)])
                if depth > 0 { step["parent"] = .string("boot\(depth - 1)") }
                lines.append(GeneratedHistory.line("activity.start", run, at + 0.1 * Double(depth + 1), step))
            }
            for depth in [2, 1, 0] where index == 0 {
                lines.append(
                    GeneratedHistory.line(
                        "activity.end", run, at + 0.3 - 0.01 * Double(depth),
                        ["activity": .string("boot\(depth)"), "outcome": "failed"]))
            }
            lines.append(
                GeneratedHistory.line(
                    "issue", run, at + 0.4, with(["message": "failed", "file": "Tests/FeedTests.swift", "line": 12])))
            lines.append(
                GeneratedHistory.line("test.end", run, at + 0.5, with(["outcome": "failed", "duration": 0.5])))
        }
        let total = JSONValue.number(Double(feed.tests.count))
        lines.append(
            GeneratedHistory.line(
                "run.end", run, start + 100, ["counts": ["tests": total, "failures": total, "errors": 0]]))
        return lines.joined(separator: "\n") + "\n"
    }
}
