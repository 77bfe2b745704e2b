import Foundation
import LedgerCore
import LedgerTestSupport
import Testing

/// Runs the real pytest on a small test file and imports what it writes, in both JUnit
/// families. Skipped, saying why, when pytest is not installed.
@Suite(.enabled(if: JUnitPytest.executable != nil, "pytest is not installed (looked in PATH and /root/.pyenv/shims)"))
struct JUnitPytestRunTests {
    static let source = """
        import pytest


        def test_passes():
            assert 1 + 1 == 2


        def test_fails():
            value = 3
            assert value == 4, "value should be four"


        @pytest.mark.skip(reason="not today")
        def test_skipped():
            pass


        @pytest.mark.xfail(reason="known bug")
        def test_expected_failure():
            assert False


        class TestGroup:
            def test_in_class(self):
                assert "a" in "abc"

        """

    /// The limit catches a pytest that hangs; it also counts the wait for a free child-process
    /// slot, which on two cores can be minutes behind the fixture packages' first builds.
    @Test(.timeLimit(.minutes(10)), arguments: ["xunit1", "xunit2"])
    func importsWhatRealPytestWrites(family: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try directory.write("test_sample.py", Self.source)
        let pytest = try #require(JUnitPytest.executable)
        let status = try await JUnitPytest.run(
            pytest,
            ["-q", "-p", "no:cacheprovider", "--junitxml=out.xml", "-o", "junit_family=\(family)", "test_sample.py"],
            in: directory.url)
        #expect(status == 1, "pytest exits 1 when a test failed")
        let run = try JUnitHarness.run(file: directory.url.appendingPathComponent("out.xml"))

        let ids = ["test_passes", "test_fails", "test_skipped", "test_expected_failure"].map { "test_sample/\($0)" }
        #expect(run.testIDs == ids + ["test_sample.TestGroup/test_in_class"])
        #expect(run.ends.map(\.outcome) == [.passed, .failed, .skipped, .expectedFailure, .passed])
        #expect(run.end("test_sample/test_skipped")?.message == "not today")
        #expect(run.end("test_sample/test_expected_failure")?.message == "known bug")
        let issue = try #require(run.issues("test_sample/test_fails").first)
        #expect(issue.message == "AssertionError: value should be four\nassert 3 == 4")
        #expect(issue.file == "test_sample.py")
        #expect(issue.line == Self.line(of: "assert value == 4"))
        #expect(run.issues.count == 1)
        let started = try #require(run.runStart?.at)
        #expect(abs(started - Date().timeIntervalSince1970) < 600, "run.start comes from pytest's timestamp")
        #expect(run.runEnd?.outcome == .failed)

        if family == "xunit1" {
            #expect(run.starts.allSatisfy { $0.file == "test_sample.py" })
            // pytest writes the 0-based line of the function; the import stores it 1-based.
            #expect(run.start("test_sample/test_passes")?.line == Self.line(of: "def test_passes"))
            #expect(run.start("test_sample/test_fails")?.line == Self.line(of: "def test_fails"))
            #expect(run.start("test_sample.TestGroup/test_in_class")?.line == Self.line(of: "def test_in_class"))
        } else {
            #expect(run.starts.allSatisfy { $0.file == nil && $0.line == nil })
        }
    }

    /// The 1-based line of the source that contains `text`.
    static func line(of text: String) -> Int? {
        source.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.contains(text) }.map { $0 + 1 }
    }
}
