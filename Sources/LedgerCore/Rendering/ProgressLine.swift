import Foundation

/// One line of progress on long work: done / total, rate and time left, as in
/// `ingest  412.0 / 980.5 MiB  42%  96.3 MiB/s  0:06 left`.
public struct ProgressLine: Sendable {
    /// What is counted.
    public enum Unit: Sendable, Equatable {
        /// Bytes, shown in MiB.
        case bytes
        /// Things, named in the plural (`files`, `batches`).
        case items(String)
    }

    public var label: String
    public var total: Int
    public var unit: Unit

    public init(label: String, total: Int, unit: Unit) {
        self.label = label
        self.total = total
        self.unit = unit
    }

    /// The line after `elapsed` seconds with `done` counted.
    public func text(done: Int, elapsed: Double) -> String {
        let done = min(max(done, 0), max(total, 0))
        var parts = [label, amount(done) + " / " + amount(total, named: true)]
        if total > 0 { parts.append("\(done * 100 / total)%") }
        if elapsed >= 0.5, done > 0 {
            let rate = Double(done) / elapsed
            parts.append(self.rate(rate))
            if done < total { parts.append(Self.clock(Double(total - done) / rate) + " left") }
        }
        return parts.joined(separator: "  ")
    }

    private func amount(_ count: Int, named: Bool = false) -> String {
        switch unit {
        case .bytes: String(format: "%.1f", Double(count) / 1_048_576) + (named ? " MiB" : "")
        case .items(let name): "\(count)" + (named ? " \(name)" : "")
        }
    }

    private func rate(_ perSecond: Double) -> String {
        switch unit {
        case .bytes: String(format: "%.1f MiB/s", perSecond / 1_048_576)
        case .items(let name): String(format: perSecond >= 10 ? "%.0f %@/s" : "%.1f %@/s", perSecond, name)
        }
    }

    /// `0:06`, `12:30`, `1:02:03`.
    static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        return hours > 0
            ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }
}
