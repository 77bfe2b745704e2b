import Foundation
import LedgerCore

/// The polling loop behind `eventually` and ``UIPredicate``: checks at once, then every
/// `interval` until `timeout`, with one last check at the deadline; then records the outcome.
struct Polling {
    var name: String
    var expect: PredicateExpectation
    var timeout: TimeInterval
    var interval: TimeInterval
    var file: String
    var line: Int

    /// Whether the condition reached what was expected before the timeout.
    func run(_ condition: () throws -> Bool) rethrows -> Bool {
        let start = DispatchTime.now()
        let deadline = start.uptimeNanoseconds + UInt64(max(0, timeout) * 1e9)
        var attempts = 0
        while true {
            attempts += 1
            if try condition() == (expect == .holds) {
                return finish(held: true, attempts: attempts, since: start)
            }
            let now = DispatchTime.now()
            if now.uptimeNanoseconds >= deadline { return finish(held: false, attempts: attempts, since: start) }
            Self.pause(min(interval, Double(deadline - now.uptimeNanoseconds) / 1e9))
        }
    }

    /// The same loop for an asynchronous condition.
    func run(isolation: isolated (any Actor)? = #isolation, _ condition: () async throws -> Bool) async rethrows
        -> Bool
    {
        let start = DispatchTime.now()
        let deadline = start.uptimeNanoseconds + UInt64(max(0, timeout) * 1e9)
        var attempts = 0
        while true {
            attempts += 1
            if try await condition() == (expect == .holds) {
                return finish(held: true, attempts: attempts, since: start)
            }
            let now = DispatchTime.now()
            if now.uptimeNanoseconds >= deadline { return finish(held: false, attempts: attempts, since: start) }
            let pause = min(interval, Double(deadline - now.uptimeNanoseconds) / 1e9)
            try? await Task.sleep(nanoseconds: UInt64(max(0, pause) * 1e9))
        }
    }

    private func finish(held: Bool, attempts: Int, since start: DispatchTime) -> Bool {
        let waited = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        guard let context = Recorder.shared.context() else { return held }
        let activity = ActivityScope.current
        Recorder.shared.record(
            .predicate(
                .init(
                    at: Date().timeIntervalSince1970, test: context.test, attempt: context.attempt, name: name,
                    expect: expect, held: held, attempts: attempts, waited: waited, timeout: timeout,
                    interval: interval, activity: activity, file: file, line: line)),
            in: context, inside: activity)
        return held
    }

    /// Waits between checks; on the main thread the run loop turns, so main-queue work the
    /// condition waits for can happen.
    private static func pause(_ seconds: TimeInterval) {
        guard seconds > 0 else { return }
        if Thread.isMainThread {
            RunLoop.current.run(until: Date(timeIntervalSinceNow: seconds))
        } else {
            Thread.sleep(forTimeInterval: seconds)
        }
    }

    /// `File.swift:42`, the default name of a predicate: its call site.
    static func callSite(_ file: String, _ line: Int) -> String {
        "\(URL(fileURLWithPath: file).lastPathComponent):\(line)"
    }
}
