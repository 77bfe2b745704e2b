import Foundation

#if canImport(XCTest) && canImport(ObjectiveC)
    import XCTest
#endif

extension TestLedger {
    /// Runs `body` as a named step of the current test and returns its value.
    ///
    /// Activities nest; each records its duration and whether a failure happened inside it.
    /// On Apple platforms the step also appears in Xcode's report (`XCTContext.runActivity`).
    /// Outside a test `body` simply runs, unrecorded.
    ///
    /// ```swift
    /// let game = try TestLedger.activity("Configure settings: beginner, off") {
    ///     try app.configureSettings(difficulty: .beginner, sound: .off)
    /// }
    /// ```
    /// - Parameters:
    ///   - name: what the step does, as people read it in reports.
    ///   - body: the step.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    @discardableResult
    public static func activity<Value>(_ name: String, _ body: () throws -> Value) rethrows -> Value {
        guard let context = Recorder.shared.context() else { return try body() }
        let parent = ActivityScope.current
        let id = Recorder.shared.beginActivity(name, parent: parent, in: context, at: Date().timeIntervalSince1970)
        do {
            let value = try ActivityScope.$current.withValue(id) { try runInXcode(name, body) }
            Recorder.shared.endActivity(id, threw: false, at: Date().timeIntervalSince1970)
            return value
        } catch {
            Recorder.shared.endActivity(id, threw: true, at: Date().timeIntervalSince1970)
            throw error
        }
    }

    /// Runs the asynchronous `body` as a named step of the current test and returns its value.
    ///
    /// Activities nest across `await`s; unlike the synchronous form, the step does not appear in
    /// Xcode's report. Outside a test `body` simply runs, unrecorded.
    /// - Parameters:
    ///   - name: what the step does, as people read it in reports.
    ///   - isolation: the actor `body` runs on; the caller's by default.
    ///   - body: the step.
    /// - Returns: what `body` returns.
    /// - Throws: what `body` throws.
    @discardableResult
    public static func activity<Value>(
        _ name: String, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Value
    ) async rethrows -> Value {
        guard let context = Recorder.shared.context() else { return try await body() }
        let parent = ActivityScope.current
        let id = Recorder.shared.beginActivity(name, parent: parent, in: context, at: Date().timeIntervalSince1970)
        do {
            let value = try await ActivityScope.$current.withValue(id) { try await body() }
            Recorder.shared.endActivity(id, threw: false, at: Date().timeIntervalSince1970)
            return value
        } catch {
            Recorder.shared.endActivity(id, threw: true, at: Date().timeIntervalSince1970)
            throw error
        }
    }

    private static func runInXcode<Value>(_ name: String, _ body: () throws -> Value) rethrows -> Value {
        #if canImport(XCTest) && canImport(ObjectiveC)
            return try XCTContext.runActivity(named: name) { _ in try body() }
        #else
            return try body()
        #endif
    }
}
