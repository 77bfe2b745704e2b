import LedgerCore
import Testing

@Suite struct ProgressLineTests {
    @Test func bytesSayDoneTotalShareRateAndTimeLeft() {
        let line = ProgressLine(label: "ingest", total: 100 << 20, unit: .bytes)
        #expect(line.text(done: 25 << 20, elapsed: 5) == "ingest  25.0 / 100.0 MiB  25%  5.0 MiB/s  0:15 left")
        #expect(line.text(done: 100 << 20, elapsed: 20) == "ingest  100.0 / 100.0 MiB  100%  5.0 MiB/s")
    }

    @Test func itemsAreNamedAndLongWaitsTakeHours() {
        let line = ProgressLine(label: "upload", total: 10_000, unit: .items("batches"))
        #expect(line.text(done: 1, elapsed: 1) == "upload  1 / 10000 batches  0%  1.0 batches/s  2:46:39 left")
        #expect(line.text(done: 5_000, elapsed: 100) == "upload  5000 / 10000 batches  50%  50 batches/s  1:40 left")
    }

    @Test func noRateBeforeHalfASecondOrAnythingDoneAndCountsStayInRange() {
        let line = ProgressLine(label: "read", total: 10, unit: .items("files"))
        #expect(line.text(done: 3, elapsed: 0.1) == "read  3 / 10 files  30%")
        #expect(line.text(done: 0, elapsed: 9) == "read  0 / 10 files  0%")
        #expect(line.text(done: 99, elapsed: 1) == "read  10 / 10 files  100%  10 files/s")
        #expect(ProgressLine(label: "x", total: 0, unit: .bytes).text(done: 5, elapsed: 1) == "x  0.0 / 0.0 MiB")
    }
}
