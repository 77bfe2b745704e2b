import Foundation
import LedgerCore
import Testing

/// Run ids are digests of what was imported: they must never change, however the bytes arrive.
struct ContentDigestTests {
    static let content = #"<testsuite name="s"/>"# + "\n"

    @Test func aRunIDStaysWhatItWas() {
        var digest = ContentDigest()
        digest.update(Data(Self.content.utf8))
        // An independent implementation of the two FNV-1a lanes gives this id.
        #expect(digest.runID(project: "Shop") == "96d8ac61-7412-8aa4-8314-b4c4dc0b0847")
    }

    @Test func bytesReadInPlaceOrOneByOneAndInAnyChunksDigestAlike() throws {
        let bytes = Array((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        var whole = ContentDigest()
        whole.update(bytes)
        var chunked = ContentDigest()
        for start in stride(from: 0, to: bytes.count, by: 4_097) {
            chunked.update(Data(bytes[start..<min(start + 4_097, bytes.count)]))
        }
        #expect(chunked.uuidString == whole.uuidString)
        let file = FileManager.default.temporaryDirectory.appending(path: "digest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(bytes).write(to: file)
        #expect(try ContentDigest.of(file: file).uuidString == whole.uuidString)
    }
}
