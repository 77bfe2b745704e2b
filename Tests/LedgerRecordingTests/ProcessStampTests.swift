import LedgerCore
import LedgerRecording
import Testing

@Suite struct ProcessStampTests {
    private func start(_ test: String, at: Double, attempt: Int = 1, process: Int? = nil) -> LedgerRecord {
        LedgerRecord(run: "r", event: .testStart(.init(at: at, test: test, attempt: attempt, process: process)))
    }

    private func end(_ test: String, at: Double, load: Double? = nil) -> LedgerRecord {
        LedgerRecord(run: "r", event: .testEnd(.init(at: at, test: test, outcome: .passed, duration: 1, load: load)))
    }

    private func stamped(_ records: [LedgerRecord], _ stamp: ProcessStamp) throws -> [LedgerEvent] {
        var sink = CollectingSink()
        try sink.stamping(stamp) { stamping in
            for record in records { try stamping.consume(record) }
        }
        return sink.records.map(\.event)
    }

    @Test func theLoadAtATimeIsTheLastReadBeforeItElseTheFirst() {
        var loads = LoadSamples()
        #expect(loads.load(at: 5) == nil)
        loads.append(at: 10, load: 1)
        loads.append(at: 20, load: 4)
        loads.append(at: 15, load: 2)  // read out of order: kept in time's order
        #expect(loads.load(at: 5) == 1)
        #expect(loads.load(at: 10) == 1)
        #expect(loads.load(at: 16) == 2)
        #expect(loads.load(at: 19.9) == 2)
        #expect(loads.load(at: 99) == 4)
    }

    @Test func attemptsThatNameNoProcessGetTheSharedOneAndTheLoadOfTheirTime() throws {
        let stamp = ProcessStamp(processes: .shared(-7), loads: LoadSamples([(10, 1.5), (20, 6)]))
        let events = try stamped(
            [start("A", at: 12), start("B", at: 21, process: 99), end("A", at: 22), end("B", at: 23, load: 0.5)],
            stamp)
        #expect(events[0].testStart?.process == -7)
        #expect(events[0].testStart?.load == 1.5)
        #expect(events[1].testStart?.process == 99, "what the producer says stands")
        #expect(events[1].testStart?.load == 6)
        #expect(events[2].testEnd?.load == 6)
        #expect(events[3].testEnd?.load == 0.5)
    }

    @Test func underParallelEachAttemptHasAProcessOfItsOwn() throws {
        let first = ProcessStamp.childID(of: 4242, slot: 2)
        let events = try stamped(
            [start("A", at: 1), start("B", at: 1), start("A", at: 2, attempt: 2), start("B", at: 3)],
            ProcessStamp(processes: .eachOwn(from: first)))
        let processes = events.compactMap { $0.testStart?.process }
        #expect(processes == [first, first - 1, first - 2, first - 1], "B's attempt 1 twice: one process")
        #expect(processes.allSatisfy { $0 < 0 }, "never a real process id")
        #expect(ProcessStamp.childID(of: 4242, slot: 0) != ProcessStamp.childID(of: 4243, slot: 0))
        #expect(ProcessStamp.childID(of: 4242, slot: 0) != ProcessStamp.childID(of: 4242, slot: 1))
    }

    @Test func anUnknownProcessStampsOnlyTheLoad() throws {
        let events = try stamped([start("A", at: 1)], ProcessStamp(processes: .unknown, loads: LoadSamples([(0, 3)])))
        #expect(events[0].testStart?.process == nil)
        #expect(events[0].testStart?.load == 3)
    }
}
