import Foundation
import LedgerCore
import LedgerImport

/// Collects what `record` sees of a `swift test` process as it runs: XCTest's console results from
/// the two output threads, the process's id, and the machine's load average as lines arrive.
package final class ConsoleCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var parser = XCTestConsoleParser()
    private var machine = MachineLoad()
    private var loads = LoadSamples()
    private var process: Int32?

    package init() {}

    /// Notes the process's id and a first load average, as it starts.
    package func started(_ process: Int32) {
        lock.withLock { self.process = process }
        sampleLoad()
    }

    package func consume(_ line: Substring) {
        let now = Date().timeIntervalSince1970
        lock.withLock { parser.consume(line, now: now) }
        sampleLoad()
    }

    /// Reads the load average, at most once a second.
    package func sampleLoad() {
        let now = Date().timeIntervalSince1970
        lock.withLock {
            if let last = loads.samples.last, now - last.at < 1 { return }
            if let load = machine.loadAverage(now: MachineLoad.monotonicSeconds()) {
                loads.append(at: now, load: load)
            }
        }
    }

    /// The finished cases, then those the output left unfinished (as crashed): read it once the
    /// command has ended.
    package var results: [XCTestConsoleParser.Result] { lock.withLock { parser.results + parser.unfinished } }

    /// What to stamp on the attempts of the process's output of `slot` (see
    /// ``ProcessStamp/childID(of:slot:)``); `--parallel` gives each XCTest attempt a process.
    package func stamp(slot: Int, eachOwn: Bool = false) -> ProcessStamp {
        lock.withLock {
            guard let process else { return ProcessStamp(processes: .unknown, loads: loads) }
            let id = ProcessStamp.childID(of: process, slot: slot)
            return ProcessStamp(processes: eachOwn ? .eachOwn(from: id) : .shared(id), loads: loads)
        }
    }
}
