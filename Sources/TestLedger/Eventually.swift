import Foundation

/// The default time a retry-based predicate waits: 1 second.
public let defaultPredicateTimeout: TimeInterval = 1
/// The default pause between checks: 10 milliseconds.
public let defaultPredicateInterval: TimeInterval = 0.01

/// Checks `condition` until it holds or `timeout` passes, and records how that went.
///
/// It checks at once, then after every `interval`, with one last check at the deadline. On the
/// main thread the run loop turns between checks, so main-queue work the condition waits for
/// can happen.
///
/// ```swift
/// XCTAssertTrue(eventually { screen.total == 450 })
/// ```
/// - Parameters:
///   - name: names the check in reports; its call site (`File.swift:42`) by default.
///   - timeout: how long to wait, 1 s by default.
///   - interval: the pause between checks, 10 ms by default.
///   - file: the call site's file, recorded with the check.
///   - line: the call site's line, recorded with the check.
///   - condition: what should become true.
/// - Returns: whether it held before the timeout.
/// - Throws: what `condition` throws; the check is then not recorded.
@discardableResult
public func eventually(
    _ name: String? = nil, timeout: TimeInterval = defaultPredicateTimeout,
    interval: TimeInterval = defaultPredicateInterval, file: String = #filePath, line: Int = #line,
    _ condition: () throws -> Bool
) rethrows -> Bool {
    try Polling(
        name: name ?? Polling.callSite(file, line), expect: .holds, timeout: timeout, interval: interval, file: file,
        line: line
    ).run(condition)
}

/// Checks the asynchronous `condition` until it holds or `timeout` passes, and records how that went.
///
/// Between checks it sleeps without blocking the thread.
/// - Parameters:
///   - name: names the check in reports; its call site by default.
///   - timeout: how long to wait, 1 s by default.
///   - interval: the pause between checks, 10 ms by default.
///   - file: the call site's file, recorded with the check.
///   - line: the call site's line, recorded with the check.
///   - isolation: the actor `condition` is checked on; the caller's by default.
///   - condition: what should become true.
/// - Returns: whether it held before the timeout.
/// - Throws: what `condition` throws; the check is then not recorded.
@discardableResult
public func eventually(
    _ name: String? = nil, timeout: TimeInterval = defaultPredicateTimeout,
    interval: TimeInterval = defaultPredicateInterval, file: String = #filePath, line: Int = #line,
    isolation: isolated (any Actor)? = #isolation, _ condition: () async throws -> Bool
) async rethrows -> Bool {
    try await Polling(
        name: name ?? Polling.callSite(file, line), expect: .holds, timeout: timeout, interval: interval, file: file,
        line: line
    ).run(isolation: isolation, condition)
}
