import Foundation
import LedgerCore
import LedgerImport
import LedgerTestSupport
import Testing

/// ``BaconOutputParser`` on the SpecDox lines of the TestLedger output module run with
/// `TESTLEDGER_TEST_RETRIES=N`: `[FAILED, retrying K/N]` is attempt K of the spec, failed, and the
/// next line of the same requirement in the same context is attempt K + 1.
struct BaconRetryLineTests {
    /// What the module prints for `bacon -o TestLedger` with `TESTLEDGER_TEST_RETRIES=2`.
    static let retried = """
        Retried
          - passes
          - fails once [FAILED, retrying 1/2]
          - fails once
          - raises once [ERROR: ArgumentError, retrying 1/2]
          - raises once
          - always fails [FAILED, retrying 1/2]
          - always fails [FAILED, retrying 2/2]
          - always fails [FAILED]
          inner
            - always raises [ERROR: ArgumentError, retrying 1/2]
            - always raises [ERROR: ArgumentError, retrying 2/2]
            - always raises [ERROR: ArgumentError]

        Bacon::Error: 2.==(3) failed
        \tspec/retry_spec.rb:19:in `block (2 levels) in <top (required)>': Retried - always fails
        \tspec/retry_spec.rb:18:in `block in <top (required)>'
        \tspec/retry_spec.rb:1:in `<top (required)>'

        ArgumentError: bang
        \tspec/retry_spec.rb:26:in `block (3 levels) in <top (required)>': inner - always raises
        \tspec/retry_spec.rb:25:in `block (2 levels) in <top (required)>'
        \tspec/retry_spec.rb:1:in `<top (required)>'

        5 specifications (4 requirements), 1 failures, 1 errors
        """

    @Test func aSpecThatPassesOnARetryHasAFailedThenAPassedAttempt() throws {
        let parse = try BaconSpecs.parse(Self.retried)
        let test = "Retried/fails once"
        #expect(parse.attempts(of: test) == [.failed, .passed])
        #expect(parse.starts.filter { $0.test == test }.map(\.attempt) == [1, 2])
        #expect(parse.ends.filter { $0.test == test }.map(\.attempt) == [1, 2])
        #expect(parse.starts.filter { $0.test == test }.allSatisfy { $0.suite == "Retried" && $0.name == "fails once" })
        let issues = parse.issues.filter { $0.test == test }
        #expect(issues.map(\.attempt) == [1], "the passing attempt has no issue")
        #expect(issues.map(\.message) == ["FAILED"], "no ErrorLog entry: the tag is the message")
        #expect(issues.map(\.kind) == [.assertion])
        #expect(parse.attempts(of: "Retried/raises once") == [.error, .passed])
        #expect(parse.issue(of: "Retried/raises once")?.message == "ERROR: ArgumentError")
        #expect(parse.attempts(of: "Retried/passes") == [.passed])
    }

    @Test func anAlwaysFailingSpecHasAFailedAttemptPerRun() throws {
        let parse = try BaconSpecs.parse(Self.retried)
        let test = "Retried/always fails"
        #expect(parse.attempts(of: test) == [.failed, .failed, .failed])
        #expect(parse.ends.filter { $0.test == test }.map(\.attempt) == [1, 2, 3])
        let issues = parse.issues.filter { $0.test == test }
        #expect(issues.map(\.attempt) == [1, 2, 3])
        #expect(issues.map(\.message) == ["FAILED", "FAILED", "2.==(3) failed"], "the ErrorLog is the last attempt's")
        #expect(issues.map(\.line) == [nil, nil, 19])
        #expect(issues.last?.file == "spec/retry_spec.rb")
        #expect(parse.ends.last { $0.test == test }?.message == "2.==(3) failed")

        let nested = "Retried inner/always raises"
        #expect(parse.attempts(of: nested) == [.error, .error, .error])
        #expect(parse.issues.filter { $0.test == nested }.map(\.message).last == "ArgumentError: bang")
        #expect(parse.issues.filter { $0.test == nested }.last?.line == 26)
        #expect(parse.runEnds.map(\.outcome) == [.failed])
    }

    @Test func theSummaryCountsSpecsNotAttempts() throws {
        let parse = try BaconSpecs.parse(Self.retried)
        #expect(parse.parser.summary?.specifications == 5)
        #expect(Set(parse.starts.map(\.test)).count == 5)
        #expect(parse.starts.count == 11)
        #expect(parse.parser.notes.isEmpty, "\(parse.parser.notes)")
        #expect(!parse.starts.contains { $0.test.contains("retrying") || $0.test.contains(" #") })

        var sink = CollectingSink()
        let context = ImportContext(
            runID: "BACO0000-0000-4000-8000-000000000002", sourceName: "bacon.txt",
            metadata: RunMetadata(project: "Specs"), fallbackStart: 42)
        try BaconImporter().importResults(from: .data(Data(Self.retried.utf8)), context: context, into: &sink)
        #expect(sink.warnings.isEmpty, "\(sink.warnings)")
        #expect(sink.events.testEnds.count == 11)
    }

    @Test func rubyMotionRetryTagsKeepTheirMessages() throws {
        let text = """
            Motion
              - fails once [FAILED - true.==(false) failed, retrying 1/2]
              - fails once
              - raises once [ERROR: ArgumentError - boom, retrying 1/2]
              - raises once
              - cannot find a view [ERROR - Unable to find a view with label `Pay', retrying 1/1]
              - cannot find a view
              - has [brackets] [FAILED - expected [1, 2], retrying 1/1]
              - has [brackets] [FAILED - expected [1, 2]]

            Bacon::Error: expected [1, 2]
            \tmotion.rb:21:in `block (2 levels) in <main>': Motion - has [brackets]

            4 specifications (3 requirements), 1 failures, 0 errors
            """
        let parse = try BaconSpecs.parse(text)
        #expect(parse.attempts(of: "Motion/fails once") == [.failed, .passed])
        #expect(parse.issue(of: "Motion/fails once")?.message == "true.==(false) failed")
        #expect(parse.attempts(of: "Motion/raises once") == [.error, .passed])
        #expect(parse.issue(of: "Motion/raises once")?.message == "ArgumentError: boom")
        #expect(parse.issue(of: "Motion/raises once")?.kind == .error)
        #expect(parse.issue(of: "Motion/cannot find a view")?.message == "Unable to find a view with label `Pay'")
        #expect(parse.attempts(of: "Motion/has [brackets]") == [.failed, .failed])
        let issues = parse.issues.filter { $0.test == "Motion/has [brackets]" }
        #expect(issues.map(\.message) == ["expected [1, 2]", "expected [1, 2]"])
        #expect(issues.map(\.line) == [nil, 21], "the ErrorLog entry is the last attempt's")
        #expect(Set(parse.starts.map(\.test)).count == 4)
        #expect(parse.parser.notes.isEmpty, "\(parse.parser.notes)")
    }

    @Test func aRetriedSpecKeepsTheNumberOfARepeatedRequirement() throws {
        let text = """
            Cart
              - adds
              - adds [FAILED, retrying 1/1]
              - adds
              - adds

            3 specifications (3 requirements), 0 failures, 0 errors
            """
        let parse = try BaconSpecs.parse(text)
        #expect(parse.starts.map(\.test) == ["Cart/adds", "Cart/adds #2", "Cart/adds #2", "Cart/adds #3"])
        #expect(parse.starts.map(\.attempt) == [1, 1, 2, 1])
        #expect(parse.attempts(of: "Cart/adds #2") == [.failed, .passed])
        #expect(parse.parser.notes.isEmpty)
    }

    @Test func attemptsTakeTheTimeBetweenTheirLines() throws {
        let text =
            "Cart\n  - adds [FAILED, retrying 1/1]\n  - adds\n\n1 specifications (1 requirements), 0 failures, 0 errors"
        let parse = try BaconSpecs.parse(text, times: [10, 10.5, 11.25, 11.3, 11.4])
        let ends = parse.ends.filter { $0.test == "Cart/adds" }
        #expect(ends.map(\.at) == [10.5, 11.25])
        #expect(ends.map(\.duration) == [0.5, 0.75])
        #expect(parse.starts.map(\.at) == [10, 10.5])
    }

    /// A first `retrying 1/N` line is a retry only when the next line is the next attempt.
    @Test func aFirstRetryLineWaitsForTheNextLine() throws {
        var parser = BaconOutputParser(startedAt: 0)
        #expect(try parser.consume("Cart", at: nil).isEmpty)
        #expect(try parser.consume("  - adds [FAILED, retrying 1/2]", at: nil).isEmpty)
        let next = try parser.consume("  - adds [FAILED, retrying 2/2]", at: nil)
        #expect(next.map(\.type) == ["test.start", "issue", "test.end", "test.start", "issue", "test.end"])
        #expect(next.compactMap(\.testStart).map(\.attempt) == [1, 2])
        let last = try parser.consume("  - adds", at: nil)
        #expect(last.compactMap(\.testEnd).map { [$0.attempt: $0.outcome] } == [[3: .passed]])
        #expect(try parser.consume("  - removes", at: nil).map(\.type) == ["test.start", "test.end"])
    }

    @Test func requirementsNamedLikeTagsAreNotRetries() throws {
        let text = """
            Names
              - says "[FAILED, retrying 1/2]"
              - says [FAILED, retrying 1/2]
              - passes
              - [FAILED, retrying 1/1]
              - x [FAILED, retrying 2/2]
              - x
              - y [FAILED, retrying 3/2]
              - z [MISSING, retrying 1/1]
              - z
              - quoted "[FAILED" [FAILED, retrying 1/1]
              - quoted "[FAILED"
              - w [FAILED, retrying 1/1]
              - w [FAILED, retrying 1/1]

            Other
              - v [FAILED, retrying 1/1]

            Another
              - v
              - last [FAILED, retrying 1/1]

            15 specifications (15 requirements), 0 failures, 0 errors
            """
        let parse = try BaconSpecs.parse(text)
        let outcomes = parse.outcomes()
        #expect(outcomes[#"Names/says "[FAILED, retrying 1/2]""#] == .passed)
        #expect(outcomes["Names/says [FAILED, retrying 1/2]"] == .passed, "the next line is another spec")
        #expect(outcomes["Names/[FAILED, retrying 1/1]"] == .passed)
        #expect(outcomes["Names/x [FAILED, retrying 2/2]"] == .passed, "a retry begins at attempt 1")
        #expect(outcomes["Names/x"] == .passed)
        #expect(outcomes["Names/y [FAILED, retrying 3/2]"] == .passed)
        #expect(outcomes["Names/z [MISSING, retrying 1/1]"] == .passed, "an empty spec is not retried")
        #expect(parse.attempts(of: #"Names/quoted "[FAILED""#) == [.failed, .passed])
        #expect(parse.attempts(of: "Names/w [FAILED, retrying 1/1]") == [.passed], "attempt 1 again: another spec")
        #expect(
            parse.starts.filter { $0.test.hasPrefix("Names/w") }.map(\.test) == [
                "Names/w [FAILED, retrying 1/1]", "Names/w [FAILED, retrying 1/1] #2",
            ])
        #expect(outcomes["Other/v [FAILED, retrying 1/1]"] == .passed, "the next line is in another context")
        #expect(outcomes["Another/v"] == .passed)
        #expect(outcomes["Another/last [FAILED, retrying 1/1]"] == .passed, "no next attempt came")
        #expect(parse.starts.filter { $0.attempt > 1 }.map(\.test) == [#"Names/quoted "[FAILED""#])
        #expect(parse.parser.notes.isEmpty, "\(parse.parser.notes)")
    }

    @Test func aRubyMotionMessageEndingLikeARetryIsAMessageWithoutANextAttempt() throws {
        let text = """
            Motion
              - waits [FAILED - gave up, retrying 1/2]
              - passes

            Bacon::Error: gave up, retrying 1/2
            \tmotion.rb:9:in `block (2 levels) in <main>': Motion - waits

            2 specifications (1 requirements), 1 failures, 0 errors
            """
        let parse = try BaconSpecs.parse(text)
        #expect(parse.attempts(of: "Motion/waits") == [.failed])
        #expect(parse.issue(of: "Motion/waits")?.message == "gave up, retrying 1/2")
        #expect(parse.issue(of: "Motion/waits")?.line == 9)
        #expect(parse.starts.map(\.test) == ["Motion/waits", "Motion/passes"])
        let atTheEnd = try BaconSpecs.parse(
            "Motion\n  - waits [FAILED - gave up, retrying 1/2]\n\n1 specifications (1 requirements), 1 failures, 0 errors"
        )
        #expect(atTheEnd.issue(of: "Motion/waits")?.message == "gave up, retrying 1/2")
        #expect(atTheEnd.runEnds.map(\.outcome) == [.failed])
    }

    @Test func outputCutShortAfterARetryKeepsTheAttemptsSeen() throws {
        let first = try BaconSpecs.parse("Cart\n  - adds [FAILED, retrying 1/2]")
        #expect(first.outcomes() == ["Cart/adds [FAILED, retrying 1/2]": .passed], "unconfirmed: read as before")
        let second = try BaconSpecs.parse("Cart\n  - adds [FAILED, retrying 1/2]\n  - adds [FAILED, retrying 2/2]")
        #expect(second.attempts(of: "Cart/adds") == [.failed, .failed])
        #expect(second.runEnds.isEmpty)
    }

    @Test func hostileRetryLinesNeitherCrashNorMisnumber() throws {
        var generator = BaconGarbageGenerator(seed: 11)
        let pieces = [
            "  - a", "  - a [FAILED, retrying 1/2]", "  - a [FAILED, retrying 2/2]", "  - a [FAILED]",
            "  - a [ERROR: X - m, retrying 1/1]", "  - a [FAILED, retrying 0/0]", "  - a [FAILED, retrying 1/]",
            "  - a [FAILED, retrying /2]", "  - a [FAILED, retrying 99999999999999999999/1]", "  - [, retrying 1/1]",
            "  - a [FAILED, retrying 1/2] [FAILED, retrying 1/2]", "    - a [FAILED, retrying 1/2]", "Ctx", "",
            "\tspec/a.rb:1: Ctx - a", "  - a [FAILED - , retrying 1/2]", "  - , retrying 1/2]",
            "  - a [FAILED, retrying 1/2\u{301}]", "  - \u{600}1/2]",
        ]
        for _ in 0..<300 {
            let lines = (0..<20).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &generator)] }
            let parse = try BaconSpecs.parse(lines.joined(separator: "\n") + "\n")
            var next: [String: Int] = [:]
            for start in parse.starts {
                #expect(start.attempt == (next[start.test] ?? 1), "\(lines)")
                next[start.test] = start.attempt + 1
            }
            #expect(parse.ends.count == parse.starts.count, "\(lines)")
        }
    }

    /// The real `bacon` with the module and `TESTLEDGER_TEST_RETRIES=2`, on a spec that fails
    /// the first time only: what it prints gives the attempts the module recorded.
    @Test(.enabled(if: BaconSpecs.bacon != nil, BaconSpecs.skipReason))
    func realBaconRetriesReadAsAttempts() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write(
            "spec/retry_spec.rb",
            #"""
            describe 'Retried' do
              it 'passes' do
                1.should == 1
              end

              it 'fails once' do
                marker = File.join(__dir__, 'failed-once')
                first = !File.exist?(marker)
                File.write(marker, '')
                first.should == false
              end

              it 'always fails' do
                2.should == 3
              end
            end
            """#)
        let events = directory.path("events.ndjson")
        let output = try await ChildProcess.run(
            URL(fileURLWithPath: try #require(BaconSpecs.bacon)),
            ["-r", BaconSpecs.module, "-o", "TestLedger", "spec/retry_spec.rb"],
            environment: ChildProcess.cleanEnvironment().merging([
                "TESTLEDGER_TEST_RETRIES": "2", "TESTLEDGER_EVENTS": events,
            ]) { $1 }, in: directory.url)
        #expect(output.status == 1, "\(output.stderr)")
        #expect(output.stdout.contains("  - fails once [FAILED, retrying 1/2]\n  - fails once\n"), "\(output.stdout)")

        let parse = try BaconSpecs.parse(output.stdout)
        #expect(parse.attempts(of: "Retried/passes") == [.passed])
        #expect(parse.attempts(of: "Retried/fails once") == [.failed, .passed])
        #expect(parse.attempts(of: "Retried/always fails") == [.failed, .failed, .failed])
        #expect(parse.issues.filter { $0.test == "Retried/always fails" }.map(\.line) == [nil, nil, 14])
        #expect(parse.parser.summary?.specifications == 3)
        #expect(parse.parser.notes.isEmpty, "\(parse.parser.notes)")

        let recorded = try BaconSpecs.records(inEventsFile: events).events
        let attempts = { (events: [LedgerEvent]) in events.testEnds.map { "\($0.test) \($0.attempt) \($0.outcome)" } }
        #expect(attempts(parse.events) == attempts(recorded), "the module's tests and attempts")
    }
}

extension BaconParse {
    /// The outcome of each attempt of `test`, in order.
    func attempts(of test: String) -> [Outcome] {
        ends.filter { $0.test == test }.map(\.outcome)
    }
}
