import LedgerCore
import LedgerTestSupport
import Testing

@testable import LedgerStore

/// The neighbourhood's sweep and its walk back in a process give what comparing every pair of a
/// run's attempts gives: on random runs of several processes, serial and parallel, with retries,
/// attempts that never ended, zero-length attempts and attempts that touch within the slack.
@Suite struct RunNeighbourhoodTests {
    /// A random run: `processes` processes, each running tests one after another or `width` at a
    /// time, with gaps and touching ends.
    static func run(seed: UInt64, attempts: Int, processes: Int, width: Int) -> [RunNeighbourhood.Row] {
        var random = SeededNumbers(seed: seed)
        var rows: [RunNeighbourhood.Row] = []
        var clocks = Array(repeating: Array(repeating: 1_000.0, count: width), count: processes)
        for id in 0..<attempts {
            let process = Int.random(in: 0..<processes, using: &random)
            let lane = Int.random(in: 0..<width, using: &random)
            let start = clocks[process][lane] + [0, 0, 0.0001, 0.01, 0.3][Int.random(in: 0..<5, using: &random)]
            // The last attempt never ends, as a crash leaves it, when process 0 ran it.
            let duration: Double? =
                id == attempts - 1 && process == 0
                ? nil : [0, 0.002, 0.05, 0.4, 2][Int.random(in: 0..<5, using: &random)]
            clocks[process][lane] = start + (duration ?? 0.5)
            // Few tests, so that retries and the same test in two processes happen.
            let test = Int64.random(in: 0..<Int64(attempts / 3 + 1), using: &random)
            rows.append(
                RunNeighbourhood.Row(
                    id: Int64(id * 3 + 1), test: test, startedAt: start, duration: duration,
                    isFailing: Bool.random(using: &random), process: process == 0 ? nil : process))
        }
        return rows.shuffled(using: &random)
    }

    static func attempt(_ row: RunNeighbourhood.Row) -> EvidenceRows.Attempt {
        EvidenceRows.Attempt(
            id: row.id, test: "T\(row.test)", testRow: row.test, run: 1, attempt: 1, outcome: nil,
            startedAt: row.startedAt, duration: row.endedAt.isFinite ? row.endedAt - row.startedAt : nil,
            message: nil, host: nil, process: row.process)
    }

    /// Every other test's attempt that overlapped `row` by more than the slack, by comparing each.
    static func overlapping(_ row: RunNeighbourhood.Row, among rows: [RunNeighbourhood.Row]) -> [Int64] {
        let slack = AttemptTimeline.slack
        return rows.filter { other in
            other.id != row.id && other.test != row.test && other.startedAt < row.endedAt - slack
                && other.endedAt > row.startedAt + slack
        }.map(\.id).sorted()
    }

    static let shapes = [(1, 1), (1, 4), (3, 1), (4, 3), (2, 8)]

    @Test(arguments: 0..<5) func theSweepFindsWhatEveryPairWouldFind(shape: Int) {
        let (processes, width) = Self.shapes[shape]
        for seed in UInt64(0)..<8 {
            let rows = Self.run(seed: seed * 31 + UInt64(shape), attempts: 300, processes: processes, width: width)
            let compared = rows.enumerated().filter { $0.offset % 4 == 0 }.map(\.element)
            let found = RunNeighbourhood.sweep(rows, compared.map(Self.attempt))
            var withCompany = 0
            for row in compared {
                let expected = Self.overlapping(row, among: rows)
                #expect((found[row.id] ?? []).map(\.id) == expected, "seed \(seed), attempt \(row.id)")
                if !expected.isEmpty { withCompany += 1 }
            }
            // The runs are not all trivially serial or trivially crowded.
            if width > 1 { #expect(withCompany > 0, "seed \(seed)") }
            if processes == 1, width == 1 {
                #expect(withCompany < compared.count, "seed \(seed)")
            }
        }
    }

    @Test(arguments: 0..<5) func aSerialProcessNamesTheOtherTestStoredJustBefore(shape: Int) {
        let (processes, width) = Self.shapes[shape]
        for seed in UInt64(0)..<8 {
            let rows = Self.run(seed: seed * 17 + UInt64(shape), attempts: 200, processes: processes, width: width)
            let compared = rows.filter { $0.id % 2 == 1 }.map(Self.attempt)
            var neighbourhood = RunNeighbourhood()
            neighbourhood.addRun(1, rows: rows, compared: compared)
            neighbourhood.addKeys(
                Dictionary(rows.map { ($0.test, "T\($0.test)") }, uniquingKeysWith: { first, _ in first }))
            let byProcess = Dictionary(grouping: rows, by: \.process)
            var named = 0
            for attempt in compared {
                let process = byProcess[attempt.process] ?? []
                let expected =
                    RunNeighbourhood.isSerial(process)
                    ? process.filter { $0.id < attempt.id && $0.test != attempt.testRow }.max { $0.id < $1.id }
                        .map { "T\($0.test)" } : nil
                #expect(neighbourhood.preceding(attempt) == expected, "seed \(seed), attempt \(attempt.id)")
                if expected != nil { named += 1 }
            }
            if width == 1 { #expect(named > 0, "seed \(seed)") }
            // Every other test with a failing attempt, and never the attempt's own.
            let failing = Set(rows.filter(\.isFailing).map { "T\($0.test)" })
            for attempt in compared.prefix(20) {
                #expect(neighbourhood.failedInRun(attempt).tests == failing.subtracting([attempt.test]))
            }
        }
    }

    @Test(arguments: 0..<5) func anyOverlapIsWhatComparingEveryPairSays(shape: Int) {
        let (processes, width) = Self.shapes[shape]
        var seen: Set<Bool> = []
        for seed in UInt64(0)..<40 {
            let rows = Self.run(seed: seed * 7 + UInt64(shape), attempts: 12, processes: processes, width: width)
            let pairwise = rows.contains {
                !Self.overlapping(
                    $0,
                    among: rows.map {
                        var other = $0; other.test = -1 - other.id; return other
                    }
                ).isEmpty
            }
            #expect(!RunNeighbourhood.isSerial(rows) == pairwise, "seed \(seed)")
            seen.insert(pairwise)
        }
        // One process one test at a time never overlaps; several nearly always do.
        #expect(seen == [width > 1 || processes > 1])
    }

    @Test func theSummarySaysWhetherAnyTwoAttemptsRanAtOnce() {
        var spans = ConcurrentSpans()
        spans.add(startedAt: 10, duration: 1)
        spans.add(startedAt: 11.0002, duration: 1)  // touches the first within the slack
        spans.add(startedAt: 13, duration: 0)
        spans.add(startedAt: 12.5, duration: 0.5)
        #expect(!spans.anyOverlap)
        var crowded = spans
        crowded.add(startedAt: 12.9, duration: 0.2)
        #expect(crowded.anyOverlap)
        var unended = spans
        unended.add(startedAt: 9, duration: nil)
        #expect(unended.anyOverlap)
        #expect(!ConcurrentSpans().anyOverlap)
        // At the edge of the slack the summary says maybe: the report then reads the run.
        var edge = ConcurrentSpans()
        edge.add(startedAt: 0.0007, duration: 0.0005)
        edge.add(startedAt: 0.0007, duration: nil)
        #expect(edge.anyOverlap)
    }
}
