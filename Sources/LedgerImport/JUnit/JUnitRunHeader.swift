import Foundation

/// What the whole document says about its run, gathered by a first pass before any event.
///
/// A first pass is needed because fastlane trainer (Xcode 16+) writes a suite's `<properties>`
/// after its testcases, while `run.start`, which carries the configuration, must come first.
/// The pass also proves the document well-formed before anything is emitted.
final class JUnitRunHeader: JUnitElementHandler {
    /// The earliest parseable `timestamp` of any `<testsuite>`, in seconds since 1970.
    private(set) var start: Double?
    private var device: String?
    private var configurationProperty: String?
    /// The name of a suite property whose value is its text (Jenkins accepts that form).
    private var pendingProperty: String?

    /// trainer's suite property `device` (e.g. `iPhone 16 Pro (18.2)`), else `Configuration`.
    var configuration: String? { device ?? configurationProperty }

    func didStart(_ element: String, attributes: [String: String], path: [String]) throws
        -> JUnitTextBuffer.Keep?
    {
        if element == "testsuite", let stamp = attributes["timestamp"].flatMap(JUnitTimestamp.parse) {
            start = min(start ?? stamp, stamp)
        }
        guard element == "property", path.suffix(2) == ["testsuite", "properties"],
            let name = attributes["name"], name == "device" || name == "Configuration"
        else { return nil }
        if let value = attributes["value"] {
            keep(name, value)
            return nil
        }
        pendingProperty = name
        return .head(1024)
    }

    func didEnd(_ element: String, text: String, path: [String]) throws {
        guard element == "property", let name = pendingProperty else { return }
        pendingProperty = nil
        keep(name, text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Keeps the first non-blank value of each property.
    private func keep(_ name: String, _ value: String) {
        guard JUnitText.nonBlank(value) != nil else { return }
        if name == "device" {
            device = device ?? value
        } else {
            configurationProperty = configurationProperty ?? value
        }
    }
}
