import Foundation

/// A reusable condition on the user interface, checked by polling (Obihiro's `OBHUIPredicate`).
///
/// `holds()` waits for the condition to become true; `doesntHold()` waits for it to become
/// false at some moment — which is not `!holds()`. `negation` is the opposite condition.
///
/// ```swift
/// let spinnerShown = UIPredicate("spinner shown") { screen.isSpinning }
/// XCTAssertTrue(spinnerShown.holds())
/// XCTAssertTrue(spinnerShown.doesntHold(timeout: 2))
/// ```
public struct UIPredicate: Sendable {
    /// Names the predicate in reports.
    public var name: String
    private let condition: @Sendable () -> Bool

    /// Creates a predicate; nothing is checked until it is waited for.
    ///
    /// - Parameters:
    ///   - name: names the predicate in reports.
    ///   - condition: the condition; the synchronous `holds` and `doesntHold` check it on the
    ///     calling thread.
    public init(_ name: String, _ condition: @escaping @Sendable () -> Bool) {
        self.name = name
        self.condition = condition
    }

    /// The opposite condition, named `not <name>`.
    public var negation: UIPredicate {
        let condition = self.condition
        return UIPredicate("not " + name) { !condition() }
    }

    /// Waits until the condition holds; whether it did before `timeout`.
    ///
    /// Checks at once, then after every `interval`, and records the evaluation.
    /// - Parameters:
    ///   - timeout: how long to wait, in seconds; 1 s by default.
    ///   - interval: the pause between checks, in seconds; 10 ms by default.
    ///   - file: the call site's file, recorded with the check.
    ///   - line: the call site's line, recorded with the check.
    /// - Returns: whether it held before `timeout`.
    @discardableResult
    public func holds(
        timeout: TimeInterval = defaultPredicateTimeout, interval: TimeInterval = defaultPredicateInterval,
        file: String = #filePath, line: Int = #line
    ) -> Bool {
        Polling(name: name, expect: .holds, timeout: timeout, interval: interval, file: file, line: line).run(condition)
    }

    /// Waits until the condition does not hold; whether that happened before `timeout`.
    ///
    /// Checks at once, then after every `interval`, and records the evaluation.
    /// - Parameters:
    ///   - timeout: how long to wait, in seconds; 1 s by default.
    ///   - interval: the pause between checks, in seconds; 10 ms by default.
    ///   - file: the call site's file, recorded with the check.
    ///   - line: the call site's line, recorded with the check.
    /// - Returns: whether it stopped holding before `timeout`.
    @discardableResult
    public func doesntHold(
        timeout: TimeInterval = defaultPredicateTimeout, interval: TimeInterval = defaultPredicateInterval,
        file: String = #filePath, line: Int = #line
    ) -> Bool {
        Polling(name: name, expect: .doesntHold, timeout: timeout, interval: interval, file: file, line: line)
            .run(condition)
    }

    /// Waits, without blocking the thread, until the condition holds.
    ///
    /// The condition is checked without actor isolation: not necessarily on the caller's actor.
    /// - Parameters:
    ///   - timeout: how long to wait, in seconds; 1 s by default.
    ///   - interval: the pause between checks, in seconds; 10 ms by default.
    ///   - file: the call site's file, recorded with the check.
    ///   - line: the call site's line, recorded with the check.
    /// - Returns: whether it held before `timeout`.
    @discardableResult
    public func holds(
        timeout: TimeInterval = defaultPredicateTimeout, interval: TimeInterval = defaultPredicateInterval,
        file: String = #filePath, line: Int = #line
    ) async -> Bool {
        let condition = self.condition
        return await Polling(name: name, expect: .holds, timeout: timeout, interval: interval, file: file, line: line)
            .run(isolation: nil) { () async -> Bool in condition() }
    }

    /// Waits, without blocking the thread, until the condition does not hold.
    ///
    /// The condition is checked without actor isolation: not necessarily on the caller's actor.
    /// - Parameters:
    ///   - timeout: how long to wait, in seconds; 1 s by default.
    ///   - interval: the pause between checks, in seconds; 10 ms by default.
    ///   - file: the call site's file, recorded with the check.
    ///   - line: the call site's line, recorded with the check.
    /// - Returns: whether it stopped holding before `timeout`.
    @discardableResult
    public func doesntHold(
        timeout: TimeInterval = defaultPredicateTimeout, interval: TimeInterval = defaultPredicateInterval,
        file: String = #filePath, line: Int = #line
    ) async -> Bool {
        let condition = self.condition
        return await Polling(
            name: name, expect: .doesntHold, timeout: timeout, interval: interval, file: file, line: line
        ).run(isolation: nil) { () async -> Bool in condition() }
    }
}
