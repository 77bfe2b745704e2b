import Foundation
import LedgerCore
import LedgerRecording
import LedgerStore
import LedgerTestSupport
import Testing

/// Every report in `Tests/Fixtures/RealWorld` (files that tools other than TestLedger wrote,
/// `SOURCES.md` says where from) ingested into a ledger as `ingest` stores it, with the counts
/// `Scripts/realworld-expected.py` reads from the same files on its own.
struct RealWorldCorpusTests {
    struct Expected: Decodable, Sendable, CustomTestStringConvertible {
        var file = ""
        var format: String
        var producer: String
        var tests, failed, skipped, attempts: Int
        var testDescription: String { file }

        enum CodingKeys: String, CodingKey { case format, producer, tests, failed, skipped, attempts }
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appending(path: "../Fixtures/RealWorld").standardizedFileURL

    static let corpus: [Expected] = {
        guard let data = try? Data(contentsOf: folder.appending(path: "expected.json")),
            let files = try? JSONDecoder().decode([String: Expected].self, from: data)
        else { return [] }
        return files.map { file, expected in
            var named = expected
            named.file = file
            return named
        }.sorted { $0.file < $1.file }
    }()

    @Test func theCorpusHoldsSixtyFilesFromTwentyProducers() {
        #expect(Self.corpus.count >= 60)
        #expect(Set(Self.corpus.map(\.producer)).count >= 20)
        #expect(Set(Self.corpus.map(\.format)) == ["junit", "tap", "rspec-json", "ctrf"])
    }

    @Test(arguments: corpus)
    func eachFileIsStoredAsItsProducerMeantIt(expected: Expected) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let database = try LedgerDatabase(path: directory.path("ledger.sqlite"))
        let file = try InputFile.open(Self.folder.appending(path: expected.file).path)
        defer { file.close() }
        let outcome = try Ingestion.ingest(file, format: nil, metadata: RunMetadata(project: "Corpus"), into: database)
        #expect(outcome.format.rawValue.hasPrefix(String(expected.format.prefix(4))), "detected as \(outcome.format)")
        let run = try #require(try database.runs().first)
        #expect(run.tests == expected.tests, "tests")
        #expect(run.failed + run.crashed == expected.failed, "failed")
        #expect(run.skipped == expected.skipped, "skipped")
        #expect(outcome.summary.results == expected.attempts, "attempts")
    }
}
