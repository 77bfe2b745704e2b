import LedgerCore

/// What the document says about its run, gathered as it is read, and the `run.start` events
/// that carry it.
///
/// The document is read once, so `run.start` goes out before the first test with what is
/// known by then, and once the document has ended a second `run.start` for the same run adds
/// what came later: fastlane trainer (Xcode 16+) writes a suite's `<properties>` after its
/// testcases, and an earlier suite timestamp may follow. A store merges the two as it merges
/// any repeated `run.start`: the earlier time wins and an empty configuration is filled in.
/// The first one therefore carries a configuration only when nothing later could replace it.
struct JUnitRunHeader {
    /// The run's metadata, and the run start used when the document has no timestamp.
    private let base: LedgerEvent.RunStart
    /// The earliest parseable `timestamp` of any `<testsuite>` so far, in seconds since 1970.
    private(set) var earliest: Double?
    private var device: String?
    private var configurationProperty: String?
    /// When the run started by the `run.start` events sent so far; `nil` before the first.
    private var sentAt: Double?
    /// The configuration the `run.start` events sent so far gave.
    private var sentConfiguration: String?

    /// - Parameters:
    ///   - metadata: the run's metadata, whose configuration is used when the report has none.
    ///   - fallbackStart: the run start when no suite has a timestamp.
    ///   - source: the `source` of the run.
    init(metadata: RunMetadata, fallbackStart: Double, source: String) {
        base = metadata.runStart(at: fallbackStart, source: source)
    }

    /// trainer's suite property `device` (e.g. `iPhone 16 Pro (18.2)`), else `Configuration`.
    var configuration: String? { device ?? configurationProperty }

    /// Whether the first `run.start` has gone out.
    var isSent: Bool { sentAt != nil }

    /// Notes a `<testsuite>`'s timestamp.
    mutating func sawSuite(at stamp: Double) {
        earliest = min(earliest ?? stamp, stamp)
    }

    /// Whether a suite property called `name` is one the header keeps.
    static func keeps(property name: String) -> Bool { name == "device" || name == "Configuration" }

    /// Keeps the first non-blank value of the suite properties `device` and `Configuration`.
    mutating func sawProperty(_ name: String, value: String) {
        guard JUnitText.nonBlank(value) != nil else { return }
        if name == "device" {
            device = device ?? value
        } else if name == "Configuration" {
            configurationProperty = configurationProperty ?? value
        }
    }

    /// The first `run.start`, sent before any test: at the earliest timestamp seen so far (or
    /// the fallback), with trainer's `device` if already seen. A `Configuration` property or
    /// the metadata's configuration could still be overtaken by a later `device`, so neither
    /// is sent yet: the store would keep the first configuration it is given.
    mutating func first() -> LedgerEvent {
        var start = base
        start.at = earliest ?? base.at
        start.configuration = device
        sentAt = start.at
        sentConfiguration = start.configuration
        return .runStart(start)
    }

    /// The `run.start` to send once the document has ended: the only one when none was sent,
    /// else one that adds what was learnt since, or `nil` when nothing was.
    mutating func last() -> LedgerEvent? {
        var start = base
        start.at = earliest ?? base.at
        start.configuration = configuration ?? base.configuration
        if let sentAt {
            start.at = min(start.at, sentAt)
            guard start.at < sentAt || start.configuration != sentConfiguration else { return nil }
        }
        sentAt = start.at
        sentConfiguration = start.configuration
        return .runStart(start)
    }

    /// When the run started, as a store merging the `run.start` events sent would record it.
    var startedAt: Double { sentAt ?? earliest ?? base.at }
}
