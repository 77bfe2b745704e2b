import Foundation
import LedgerCore
import LedgerImport
import LedgerTestSupport
import Testing

/// TAP written by real producers on this machine: node's test runner and Perl's `prove`.
/// Each test skips, saying so, when its producer is not installed. The limit catches a producer
/// that hangs; it also counts the wait for a free child-process slot, which on two cores can be
/// minutes behind the fixture packages' first `swift test` builds.
@Suite(.timeLimit(.minutes(10)))
struct TAPRealProducerTests {
    static let node = executable("node")
    static let prove = executable("prove")
    static let perl = executable("perl")

    static let nodeTests = """
        const { test, describe, it } = require('node:test');
        const assert = require('node:assert');
        test('passes', () => { assert.ok(true); });
        test('fails', () => { assert.strictEqual(1, 2); });
        test('skipped', { skip: 'not today' }, () => {});
        test('todo', { todo: 'later' }, () => { assert.fail('nope'); });
        test('sleeps', async () => { await new Promise((done) => setTimeout(done, 50)); });
        describe('outer', () => {
          it('inner pass', () => {});
          describe('deeper', () => {
            it('inner fail', () => { throw new Error('boom #1'); });
          });
        });
        """

    @Test(.enabled(if: node != nil, "node is not installed"))
    func nodeTestRunnersTAPImportsEveryOutcomeAndTheNesting() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = try directory.write("sample.test.js", Self.nodeTests)
        let output = try await Self.run(
            try #require(Self.node), ["--test", "--test-reporter=tap", file.path], in: directory.url)
        let run = try ImportedRun.importing(output, with: TAPImporter())
        #expect(
            run.finalOutcomes == [
                "passes": .passed, "fails": .failed, "skipped": .skipped, "todo": .expectedFailure,
                "sleeps": .passed, "outer/inner pass": .passed, "outer / deeper/inner fail": .failed,
            ])
        #expect(run.starts.count == 7, "the describe blocks are suites, not tests")
        // libuv times a 50 ms timer from its loop's cached clock, so node may report a little less.
        #expect(try #require(run.end("sleeps")).duration >= 0.04)
        #expect(run.end("skipped")?.message == "not today")
        #expect(run.end("todo")?.message == "later")
        let failure = try #require(run.issues("fails").first)
        #expect(failure.message.contains("Expected values to be strictly equal"))
        #expect(failure.file?.hasSuffix("sample.test.js") == true)
        #expect(failure.line == 4)
        let nested = try #require(run.issues("outer / deeper/inner fail").first)
        #expect(nested.message == "boom #1")
        #expect(nested.line == 11)
        #expect(run.start("outer / deeper/inner fail")?.suite == "outer / deeper")
        #expect(run.issues.count == 2)
        #expect(run.runEnd?.outcome == .failed)
        #expect(run.warnings.isEmpty)
        #expect(run.attemptsAreWellFormed && run.timesAreConsistent)
    }

    static let moreTests = """
        use strict; use warnings;
        use Test::More tests => 5;
        ok(1, 'first passes');
        is(1, 2, 'second fails');
        SKIP: { skip 'no network', 1; ok(0, 'network'); }
        TODO: { local $TODO = 'not done'; ok(0, 'unfinished'); }
        select(undef, undef, undef, 0.05);
        ok(1, 'after sleep');
        """

    static let plainTests = """
        print "1..2\\n";
        print "ok 1 - plain one\\n";
        print "not ok 2 - plain two\\n";
        print "# boom at plain.t:3\\n";
        """

    @Test(.enabled(if: prove != nil, "prove (Perl) is not installed"))
    func proveVerboseOutputImportsEachFileWithItsDiagnostics() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("t/more.t", Self.moreTests)
        try directory.write("t/plain.t", Self.plainTests)
        let output = try await Self.run(
            try #require(Self.prove), ["-v", "--merge", "t/more.t", "t/plain.t"], in: directory.url)
        let run = try ImportedRun.importing(output, with: TAPImporter())
        #expect(
            run.testIDs == [
                "t/more.t/first passes", "t/more.t/second fails", "t/more.t/test 3", "t/more.t/unfinished",
                "t/more.t/after sleep", "t/plain.t/plain one", "t/plain.t/plain two",
            ])
        #expect(run.ends.map(\.outcome) == [.passed, .failed, .skipped, .expectedFailure, .passed, .passed, .failed])
        #expect(run.start("t/plain.t/plain one")?.suite == "t/plain.t")
        #expect(run.end("t/more.t/test 3")?.message == "no network")
        #expect(run.end("t/more.t/unfinished")?.message == "not done")
        let perl = try #require(run.issues("t/more.t/second fails").first)
        #expect(perl.file == "t/more.t")
        #expect(perl.line == 4)
        #expect(perl.message.contains("got: '1'"))
        let plain = try #require(run.issues("t/plain.t/plain two").first)
        #expect(plain.message == "boom at plain.t:3")
        #expect(plain.file == "plain.t")
        #expect(plain.line == 3)
        #expect(run.runEnd?.outcome == .failed)
        #expect(run.warnings.isEmpty, "prove's own summary lines are not TAP and are ignored")
    }

    @Test(.enabled(if: perl != nil, "perl is not installed"))
    func aPlainPerlScriptRunDirectlyImports() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = try directory.write("plain.t", Self.plainTests)
        let output = try await Self.run(try #require(Self.perl), [script.path], in: directory.url)
        let run = try ImportedRun.importing(output, with: TAPImporter())
        #expect(run.finalOutcomes == ["plain one": .passed, "plain two": .failed])
        #expect(run.runEnd?.outcome == .failed)
    }

    /// The executable called `name` on the `PATH`, or `nil`.
    static func executable(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/usr/local/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        return nil
    }

    /// Runs `executable` with `arguments` in `directory` and returns what it wrote to its
    /// standard output; its exit status is not checked (the samples fail on purpose).
    static func run(_ executable: URL, _ arguments: [String], in directory: URL) async throws -> Data {
        Data(try await ChildProcess.run(executable, arguments, in: directory).stdout.utf8)
    }
}
