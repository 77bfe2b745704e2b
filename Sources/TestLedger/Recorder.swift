import Foundation
import LedgerCore

/// Everything the library records goes through here: it knows the current XCTest attempt,
/// keeps its events until the test ends, and writes through its ``RecorderDestination``.
///
/// It never disturbs the suite: a store that cannot be written is reported once, at exit.
final class Recorder: @unchecked Sendable {
    static let shared: Recorder = {
        let environment = LedgerEnvironment()
        return Recorder(
            store: RecorderDestinations.current(environment: environment), attemptOffset: environment.attemptOffset,
            isEnabled: !environment.isDisabled)
    }()

    private let lock = NSLock()
    private let store: RecorderDestination
    /// The attempts each test had in the run before this process (`TESTLEDGER_ATTEMPT_OFFSET`):
    /// this process numbers its attempts after them.
    private let attemptOffset: Int
    private var current: XCTestAttempt?
    private var attemptsSeen: [String: Int] = [:]
    private var activityCount = 0
    /// Events of Swift Testing tests inside a top-level activity, by that activity: each tree of
    /// steps is written whole when its top-level step ends, so a batch never splits a step.
    private var swiftTestingPending: [String: [LedgerEvent]] = [:]
    private var activityOwners: [String: (context: TestContext, topLevel: String)] = [:]
    /// Whether recording is on (`TESTLEDGER_DISABLE` is not `1`).
    private let isEnabled: Bool
    /// The machine's load, sampled around each XCTest attempt.
    private var machine = MachineLoad()
    /// This process's id, written with each attempt.
    private let process = Int(getpid())

    /// - Parameters:
    ///   - store: where the events go.
    ///   - attemptOffset: the attempts each test had in the run before this process.
    ///   - isEnabled: `false` records nothing (`TESTLEDGER_DISABLE=1`).
    init(store: RecorderDestination, attemptOffset: Int = 0, isEnabled: Bool = true) {
        self.store = store
        self.attemptOffset = attemptOffset
        self.isEnabled = isEnabled
    }

    /// The test the calling code runs in: Swift Testing's current test, else the XCTest case;
    /// `nil` outside a test and while recording is off.
    func context() -> TestContext? {
        guard isEnabled else { return nil }
        if var swiftTesting = TestContext.swiftTesting() {
            swiftTesting.attempt += attemptOffset
            return swiftTesting
        }
        return lock.withLock { current?.context }
    }

    // MARK: XCTest

    /// An XCTest case starts: its start is written at once, so a crash leaves a trace.
    func xctestWillStart(_ base: TestContext, at: Double) {
        let (context, load) = lock.withLock { () -> (TestContext, Double?) in
            var context = base
            func counted(_ seen: inout Int) -> Int {
                seen += 1
                return seen
            }
            context.attempt = attemptOffset + counted(&attemptsSeen[base.test, default: 0])  // one lookup of the id
            current = XCTestAttempt(context: context, startedAt: at, cpuAtStart: MachineLoad.processCPUSeconds())
            return (context, machine.loadAverage(now: MachineLoad.monotonicSeconds()))
        }
        var start = context.testStart(at: at)
        (start.process, start.load) = (process, load)
        store.write(running: true, [.testStart(start)])
    }

    /// An XCTest failure: an issue of the current attempt; open activities are marked failed.
    func xctestFailed(message: String, file: String?, line: Int?, at: Double) {
        lock.withLock {
            guard let context = current?.context else { return }
            current?.events.append(
                .issue(
                    .init(
                        at: at, test: context.test, attempt: context.attempt, message: message, file: file, line: line,
                        kind: .assertion)))
            let open = current?.openActivities ?? []
            current?.failedActivities.formUnion(open)
        }
    }

    /// The XCTest case ended: everything about it is written in one transaction.
    func xctestDidFinish(outcome: Outcome, duration: Double, message: String?, at: Double) {
        let cpu = MachineLoad.processCPUSeconds()
        guard
            let (attempt, load) = lock.withLock({ () -> (XCTestAttempt, Double?)? in
                defer { current = nil }
                return current.map { ($0, machine.loadAverage(now: MachineLoad.monotonicSeconds())) }
            })
        else { return }
        let context = attempt.context
        // Its start went out when it started: the store joins the rest to it.
        var events = attempt.events
        events.append(
            .testEnd(
                .init(
                    at: at, test: context.test, attempt: context.attempt, outcome: outcome, duration: duration,
                    message: message, load: load, cpu: max(0, cpu - attempt.cpuAtStart))))
        store.write(running: false, events)
    }

    /// The XCTest bundle finished: the run has an end (processes of one run each give theirs).
    func bundleDidFinish(at: Double) {
        store.endRun(at: at)
    }

    // MARK: Activities, captures, predicates

    /// Opens an activity in `context`; returns its id.
    func beginActivity(_ name: String, parent: String?, in context: TestContext, at: Double) -> String {
        let (id, topLevel) = lock.withLock { () -> (String, String) in
            activityCount += 1
            let id = "\(getpid())-\(activityCount)"
            if context.library == .xctest { current?.openActivities.insert(id) }
            let topLevel = parent.map { activityOwners[$0]?.topLevel ?? $0 } ?? id
            activityOwners[id] = (context, topLevel)
            return (id, topLevel)
        }
        let event = LedgerEvent.activityStart(
            .init(at: at, test: context.test, attempt: context.attempt, activity: id, parent: parent, name: name))
        append(event, in: context, topLevel: topLevel, closing: false)
        return id
    }

    /// Closes an activity; it failed when `threw`, or when a test failure happened inside it.
    func endActivity(_ id: String, threw: Bool, at: Double) {
        let (owner, failed) = lock.withLock { () -> ((context: TestContext, topLevel: String)?, Bool) in
            current?.openActivities.remove(id)
            let failed = threw || current?.failedActivities.contains(id) == true
            return (activityOwners.removeValue(forKey: id), failed)
        }
        guard let owner else { return }
        append(
            .activityEnd(.init(at: at, activity: id, outcome: failed ? .failed : .passed)), in: owner.context,
            topLevel: owner.topLevel, closing: owner.topLevel == id)
    }

    /// Records a capture or a predicate of `context`, made inside `activity` when it names one.
    func record(_ event: LedgerEvent, in context: TestContext, inside activity: String?) {
        let topLevel = activity.map { activity in lock.withLock { activityOwners[activity]?.topLevel ?? activity } }
        append(event, in: context, topLevel: topLevel, closing: topLevel == nil)
    }

    /// Adds an event to its test: XCTest events wait for the test's end; Swift Testing events,
    /// whose test's end this process never sees, wait for the end of their top-level activity
    /// (`topLevel`), or are written at once outside any. Each such batch opens with the test's
    /// start, which the store takes as the same attempt going on.
    private func append(_ event: LedgerEvent, in context: TestContext, topLevel: String?, closing: Bool) {
        switch context.library {
        case .xctest:
            lock.withLock {
                if current?.context == context { current?.events.append(event) }
            }
        case .swiftTesting:
            let ready = lock.withLock { () -> [LedgerEvent]? in
                guard let topLevel else { return [event] }
                swiftTestingPending[topLevel, default: []].append(event)
                return closing ? swiftTestingPending.removeValue(forKey: topLevel) : nil
            }
            guard let ready else { return }
            let start = LedgerEvent.testStart(
                context.testStart(at: Self.time(of: ready.first) ?? Date().timeIntervalSince1970))
            store.write(running: true, [start] + ready)
        }
    }

    private static func time(of event: LedgerEvent?) -> Double? {
        switch event {
        case .activityStart(let start): start.at
        case .capture(let capture): capture.at
        case .predicate(let predicate): predicate.at
        default: nil
        }
    }
}

/// The XCTest attempt running now, with what it recorded so far.
struct XCTestAttempt {
    var context: TestContext
    var startedAt: Double
    /// The process's CPU seconds when it started.
    var cpuAtStart: Double
    var events: [LedgerEvent] = []
    var openActivities: Set<String> = []
    var failedActivities: Set<String> = []
}
