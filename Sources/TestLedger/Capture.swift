import Foundation
import LedgerCore

/// What a verifier (a test spy) saw: a name for the verifier and its fields.
///
/// Conform a value type of your own, or use ``AlertCapture``, ``PresentationCapture`` and
/// ``DismissalCapture`` for the classic presentation spies.
public protocol Capture: Encodable {
    /// The verifier's name, e.g. `AlertVerifier`.
    var verifier: String { get }
}

extension TestLedger {
    /// Records what a verifier saw, attached to the current test and activity.
    ///
    /// Nothing is recorded outside a test.
    /// - Parameter capture: the verifier's captured state; its encoded fields are stored, without
    ///   fields when it cannot be encoded.
    public static func capture(_ capture: some Capture) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let fields = (try? encoder.encode(capture)).flatMap { try? JSONDecoder().decode(JSONValue.self, from: $0) }
        record(verifier: capture.verifier, fields: fields)
    }

    /// Records free-form state, such as a fake's inspection properties.
    ///
    /// Nothing is recorded outside a test.
    ///
    /// ```swift
    /// TestLedger.capture(verifier: "FakeUserDefaults", fields: ["lastSetKey": "volume", "hasSynchronised": true])
    /// ```
    /// - Parameters:
    ///   - verifier: whose state this is.
    ///   - fields: strings, numbers, booleans, and nested arrays and dictionaries.
    public static func capture(verifier: String, fields: [String: CaptureValue]) {
        record(verifier: verifier, fields: .object(fields))
    }

    private static func record(verifier: String, fields: JSONValue?) {
        guard let context = Recorder.shared.context() else { return }
        let activity = ActivityScope.current
        Recorder.shared.record(
            .capture(
                .init(
                    at: Date().timeIntervalSince1970, test: context.test, attempt: context.attempt, verifier: verifier,
                    activity: activity, fields: fields)),
            in: context, inside: activity)
    }
}
