import LedgerCore
import Synchronization

@testable import TestLedger

/// A recorder destination that keeps what it is given, for tests to read back.
final class MemoryDestination: RecorderDestination {
    struct Write: Equatable {
        var running: Bool
        var events: [LedgerEvent]
    }

    private let state = Mutex<(writes: [Write], endedAt: [Double])>(([], []))

    func write(running: Bool, _ events: [LedgerEvent]) {
        state.withLock { $0.writes.append(Write(running: running, events: events)) }
    }

    func endRun(at: Double) {
        state.withLock { $0.endedAt.append(at) }
    }

    func finishAtExit() -> String? { nil }

    var writes: [Write] { state.withLock { $0.writes } }
    var events: [LedgerEvent] { writes.flatMap(\.events) }
    var runEnds: [Double] { state.withLock { $0.endedAt } }
}
