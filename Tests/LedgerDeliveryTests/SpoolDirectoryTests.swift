import Foundation
import LedgerCore
import LedgerDelivery
import LedgerTestSupport
import Testing

@Suite struct SpoolDirectoryTests {
    @Test func batchesWaitOldestFirstAndRefusedOnesAreSetAside() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let spool = SpoolDirectory(url: directory.url.appending(path: "spool"))
        let first = try spool.add(Array("a\n".utf8))
        let second = try spool.add(Array("b\n".utf8), live: true)
        #expect(try spool.pending() == [first, second])
        #expect(SpoolDirectory.isLive(second) && !SpoolDirectory.isLive(first))
        let moved = try spool.reject(first)
        #expect(try spool.pending() == [second])
        #expect(moved.deletingLastPathComponent().lastPathComponent == "rejected")
    }

    @Test func leftoversOfAStoppedWriterAreSweptOnceOld() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let spool = SpoolDirectory(url: directory.url)
        let staleFolder = try directory.write(".incoming-stale/000000.ndjson", "{}\n").deletingLastPathComponent()
        let stalePartial = try directory.write(".123.000000-x.partial", "{}\n")
        let busyFolder = try directory.write(".incoming-busy/000000.ndjson", "{}\n").deletingLastPathComponent()
        let batch = try spool.add(Array("{}\n".utf8))
        let twoHoursAgo = Date(timeIntervalSinceNow: -7_200)
        for old in [staleFolder, stalePartial, batch] {
            try FileManager.default.setAttributes([.modificationDate: twoHoursAgo], ofItemAtPath: old.path)
        }

        let swept = spool.sweep(olderThan: 3_600)

        #expect(Set(swept.map(\.lastPathComponent)) == [".incoming-stale", ".123.000000-x.partial"])
        #expect(!FileManager.default.fileExists(atPath: staleFolder.path))
        #expect(FileManager.default.fileExists(atPath: busyFolder.path), "a writer at work is left alone")
        #expect(try spool.pending() == [batch], "batches are never swept, however old")
    }
}
