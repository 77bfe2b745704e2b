import LedgerCore

/// What `record` knows of the process that wrote a file of results, stamped on each attempt that
/// does not say it itself: which process ran it, and the machine's load while it ran.
///
/// The tests' own processes are children of `swift test`, unseen by `record`. Their ids are then
/// `record`'s own, negative so they never meet a real one, and derived from the `swift test`
/// process so that a retry's processes differ from the first run's.
package struct ProcessStamp: Sendable {
    /// How the attempts of one file were spread over processes.
    package enum Processes: Sendable, Equatable {
        /// Every attempt in the one process of this id.
        case shared(Int)
        /// Each attempt in a process of its own (XCTest under `swift test --parallel`), numbered
        /// from this id down.
        case eachOwn(from: Int)
        /// Unknown: attempts are stamped with no process.
        case unknown
    }

    package var processes: Processes
    /// The load averages read while the command ran, in the order read.
    package var loads: LoadSamples

    package init(processes: Processes, loads: LoadSamples = LoadSamples()) {
        (self.processes, self.loads) = (processes, loads)
    }

    /// The id `record` gives one of the processes `swift test` (of id `parent`) started.
    /// - Parameters:
    ///   - parent: the `swift test` process's id.
    ///   - slot: which of its processes: 0 XCTest's, 1 Swift Testing's, 2 the first of
    ///     `--parallel`'s.
    /// - Returns: the id, negative.
    package static func childID(of parent: Int32, slot: Int) -> Int {
        -(Int(parent) << 24 | slot)
    }
}

/// The load averages read while a command ran.
package struct LoadSamples: Sendable, Equatable {
    /// When each was read, in seconds since 1970, in order, and what it was.
    package private(set) var samples: [(at: Double, load: Double)] = []

    package init() {}

    package init(_ samples: [(at: Double, load: Double)]) {
        self.samples = samples.sorted { $0.at < $1.at }
    }

    package mutating func append(at: Double, load: Double) {
        if let last = samples.last, last.at > at {
            self = LoadSamples(samples + [(at, load)])
        } else {
            samples.append((at, load))
        }
    }

    /// The load at `at`: the last read at or before it, else the first read after it.
    package func load(at: Double) -> Double? {
        var low = 0
        var high = samples.count
        while low < high {
            let middle = (low + high) / 2
            if samples[middle].at <= at { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? samples[low - 1].load : samples.first?.load
    }

    package static func == (lhs: LoadSamples, rhs: LoadSamples) -> Bool {
        lhs.samples.elementsEqual(rhs.samples) { $0.at == $1.at && $0.load == $1.load }
    }
}

/// A sink that stamps each attempt with ``ProcessStamp``'s process and load where the producer
/// gave none, and passes every event on.
package struct ProcessStampSink<Base: EventSink>: EventSink {
    package var base: Base
    package let stamp: ProcessStamp
    /// The processes given under ``ProcessStamp/Processes/eachOwn(from:)``, by test and attempt.
    private var given: [String: Int] = [:]

    package init(base: Base, stamp: ProcessStamp) {
        (self.base, self.stamp) = (base, stamp)
    }

    package mutating func consume(_ record: LedgerRecord) throws {
        switch record.event {
        case .testStart(var start):
            start.process = start.process ?? process(of: start.test, attempt: start.attempt)
            start.load = start.load ?? stamp.loads.load(at: start.at)
            try base.consume(LedgerRecord(run: record.run, event: .testStart(start)))
        case .testEnd(var end):
            end.load = end.load ?? stamp.loads.load(at: end.at)
            try base.consume(LedgerRecord(run: record.run, event: .testEnd(end)))
        default:
            try base.consume(record)
        }
    }

    package mutating func warn(_ message: String) {
        base.warn(message)
    }

    private mutating func process(of test: String, attempt: Int) -> Int? {
        switch stamp.processes {
        case .shared(let id): return id
        case .unknown: return nil
        case .eachOwn(let first):
            let key = "\(attempt) \(test)"
            if let id = given[key] { return id }
            let id = first - given.count
            given[key] = id
            return id
        }
    }
}

extension EventSink {
    /// Runs `produce` into this sink with each attempt stamped by `stamp`.
    /// - Parameters:
    ///   - stamp: the process and load to give attempts that name none.
    ///   - produce: writes the events into the stamping sink.
    /// - Throws: what `produce` throws; the events it wrote before are in this sink.
    package mutating func stamping(
        _ stamp: ProcessStamp, _ produce: (inout ProcessStampSink<Self>) throws -> Void
    ) rethrows {
        var stamping = ProcessStampSink(base: self, stamp: stamp)
        defer { self = stamping.base }
        try produce(&stamping)
    }
}
