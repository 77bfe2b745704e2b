import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// `testledger report culprit` on a planted history ingested through the CLI.
struct CulpritCommandTests {
    static let history = PlantedCulprits(seed: 9, runs: 30, variants: 1)

    func ingested() async throws -> CLI {
        let cli = try CLI()
        let paths = try Self.history.files().enumerated().map { index, text in
            try cli.directory.write(String(format: "run%02d.jsonl", index), text).path
        }
        let ingested = try await cli.run(["ingest"] + paths)
        #expect(ingested.status == 0, "\(ingested.stderr)")
        return cli
    }

    @Test func jsonKeepsItsContract() async throws {
        let cli = try await ingested()
        defer { cli.directory.remove() }
        let test = try #require(Self.history.tests.first { $0.planted == .cause(.checkTimesOut) }?.id)
        let report = try #require(try await cli.json(["report", "culprit", test]) as? [String: Any])
        #expect(
            Set(report.keys).isSuperset(of: [
                "test", "configuration", "failingAttempts", "passingAttempts", "verdict", "where", "suspects",
            ]))
        #expect(report["test"] as? String == test && report["configuration"] as? String == "*")
        #expect(report["verdict"] as? String == "suspects")
        let place = try #require(report["where"] as? [String: Any])
        #expect(Set(place.keys).isSuperset(of: ["message", "file", "line", "activity"]))
        #expect(place["activity"] as? String == "Open the feed › Show the feed")
        let top = try #require((report["suspects"] as? [[String: Any]])?.first)
        #expect(Set(top.keys).isSuperset(of: ["kind", "name", "evidence", "score", "failing", "passing"]))
        #expect(top["kind"] as? String == "predicate" && top["name"] as? String == "spinner hidden")
        let failing = try #require(top["failing"] as? [String: Int])
        #expect(failing["count"] ?? 0 >= 5 && failing["of"] == report["failingAttempts"] as? Int)
    }

    @Test func tableAndMarkdownSayTheVerdict() async throws {
        let cli = try await ingested()
        defer { cli.directory.remove() }
        let test = try #require(Self.history.tests.first { $0.planted == .cause(.capturedValue) }?.id)
        let table = try await cli.run(["report", "culprit", test])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("Fails at: Tests/FeedTests.swift:42 in `Open the feed › Show the feed`"))
        let top = table.stdout.split(separator: "\n").first { $0.hasPrefix("capture ") }
        #expect(top?.contains(#"AlertVerifier.title = "Network error""#) == true, "\(table.stdout)")
        let rare = try #require(Self.history.tests.first { $0.planted == .twoFailures }?.id)
        let tooFew = try await cli.run(["report", "culprit", rare, "--format", "markdown"])
        #expect(tooFew.stdout.contains("Too few failures to tell: 2 failing attempt(s); a verdict needs 5."))
        let missing = try await cli.run(["report", "culprit", "Nope/test"])
        #expect(missing.status != 0 && missing.stderr.contains("Nope/test"), "\(missing.stderr)")
    }

    @Test func flakyRunAndShowNameTheLikelyCause() async throws {
        let cli = try await ingested()
        defer { cli.directory.remove() }
        let flaky = try #require(try await cli.json(["report", "flaky"]) as? [String: Any])
        let tests = try #require(flaky["flaky"] as? [[String: Any]])
        #expect(!tests.isEmpty)
        var named = 0
        for entry in tests {
            let culprit = try #require(entry["culprit"] as? [String: Any], "\(entry["test"] ?? "")")
            #expect(["suspects", "too-few-failures", "no-separation"].contains(culprit["verdict"] as? String))
            guard let suspect = culprit["suspect"] as? [String: Any],
                let planted = Self.history.tests.first(where: { $0.id == entry["test"] as? String })?.planted,
                case .cause(let cause) = planted
            else { continue }
            let expected = PlantedCulprits.expected(
                cause, precededBy: Self.history.partners[entry["test"] as? String ?? ""] ?? "")
            // Within one configuration, a configuration is no suspect; every other cause is named.
            if cause != .configuration {
                #expect(suspect["kind"] as? String == expected.0.rawValue && suspect["name"] as? String == expected.1)
                named += 1
            }
        }
        #expect(named > 0, "at least one flaky test has enough failures in its configuration")
        let table = try await cli.run(["report", "flaky"])
        #expect(table.stdout.contains("likely cause"))

        // `show` ends with the culprit report over the newest 60 runs: here, the whole history.
        let reports = Self.history.tests.map { test in
            CulpritAnalysis.report(
                test: test.id, configuration: "*", attempts: Self.history.storedAttempts[test.id] ?? [],
                runs: 30)
        }
        let expected = try #require(reports.first { $0.verdict == .suspects })
        let show = try await cli.run(["show", expected.test])
        #expect(show.stdout.contains("Why it fails (30 recent runs):"), "\(show.stdout)")
        let detail = try #require(try await cli.json(["show", expected.test]) as? [String: Any])
        let culprit = try #require(detail["culprit"] as? [String: Any])
        #expect(
            (culprit["suspects"] as? [[String: Any]])?.first?["name"] as? String == expected.suspects.first?.name,
            "\(culprit)")
    }

    @Test func aKnownFlakyFailureInARunSaysItsLikelyCause() async throws {
        let cli = try await ingested()
        defer { cli.directory.remove() }
        // A new run in which the test whose check times out fails once more, as it does.
        let test = try #require(Self.history.tests.first { $0.planted == .cause(.checkTimesOut) }?.id)
        let decided = Array(zip(Self.history.attempts[test] ?? [], Self.history.decided[test] ?? []))
        let failing = try #require(decided.last { $0.1 != nil }?.0)
        let run = "00000000-0000-4000-9000-999999999999"
        let start = 1_900_000_000.0
        var lines = [
            #"{"v":1,"type":"run.start","run":"\#(run)","at":\#(start),"project":"Feed","source":"xctest","#
                + #""configuration":"\#(failing.configuration)"}"#
        ]
        lines.append(#"{"v":1,"type":"test.start","run":"\#(run)","at":\#(start + 1),"test":"\#(test)","attempt":1}"#)
        lines.append(
            #"{"v":1,"type":"test.end","run":"\#(run)","at":\#(start + 2),"test":"\#(test)","attempt":1,"#
                + #""outcome":"failed","duration":1}"#)
        lines.append(#"{"v":1,"type":"run.end","run":"\#(run)","at":\#(start + 3)}"#)
        let path = try cli.directory.write("new-run.jsonl", lines.joined(separator: "\n") + "\n").path
        let ingested = try await cli.run(["ingest", path])
        #expect(ingested.status == 0, "\(ingested.stderr)")
        let report = try #require(try await cli.json(["report", "run", run]) as? [String: Any])
        let failure = try #require((report["failures"] as? [[String: Any]])?.first { $0["test"] as? String == test })
        #expect(failure["verdict"] as? String == "known-flaky", "\(failure)")
        let culprit = try #require(failure["culprit"] as? [String: Any])
        #expect((culprit["suspect"] as? [String: Any])?["name"] as? String == "spinner hidden", "\(culprit)")
        #expect(
            (failure["evidence"] as? String)?.contains("likely: `spinner hidden` (predicate) timed out in ") == true,
            "\(failure)")
    }
}
