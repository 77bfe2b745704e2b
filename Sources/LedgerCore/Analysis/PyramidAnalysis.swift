/// One test as the pyramid sees it: its layer and what it cost in a run.
public struct PyramidSample: Hashable, Sendable {
    /// The layer the test was classified in.
    public var layer: Layer
    /// Seconds spent, all attempts together.
    public var seconds: Double
    /// Whether its final outcome was a failure.
    public var failed: Bool
    /// Whether it failed and then passed on retry in the run.
    public var flaky: Bool

    /// Creates a sample.
    ///
    /// - Parameters:
    ///   - layer: the test's layer.
    ///   - seconds: seconds spent, all attempts together.
    ///   - failed: whether its final outcome was a failure.
    ///   - flaky: whether it failed and then passed on retry in the run.
    public init(layer: Layer, seconds: Double, failed: Bool, flaky: Bool = false) {
        self.layer = layer
        self.seconds = seconds
        self.failed = failed
        self.flaky = flaky
    }
}

/// The shape of a test suite, by count of tests per layer.
public enum PyramidVerdict: String, Codable, Sendable {
    /// Unit ≥ integration ≥ UI, unit at least half and UI at most 20%: the healthy shape.
    case pyramid
    /// UI > integration > unit, or UI at least 40% with unit under 30%: upside down.
    case iceCreamCone = "ice-cream-cone"
    /// Unit and UI each at least twice integration, with integration under 15%.
    case hourglass
    /// More integration tests than unit or UI tests.
    case diamond
    /// None of the shapes above; the reason names what is off.
    case uneven
    /// No tests were recorded.
    case empty

    /// The verdict in words, for people.
    public var title: String {
        switch self {
        case .pyramid: "pyramid"
        case .iceCreamCone: "ice-cream cone"
        case .hourglass: "hourglass"
        case .diamond: "diamond"
        case .uneven: "uneven"
        case .empty: "no tests"
        }
    }
}

/// Per-layer figures and the verdict: the count pyramid and the cost pyramid side by side.
public struct PyramidReport: Codable, Hashable, Sendable {
    /// What one layer counts and costs.
    public struct LayerFigures: Codable, Hashable, Sendable {
        /// The layer these figures are for.
        public var layer: Layer
        /// Tests in the layer: the samples classified in it.
        public var tests: Int
        /// Share of the tests, by count (0…1).
        public var share: Double
        /// Seconds its tests spent, all attempts together.
        public var seconds: Double
        /// Share of the run time (0…1).
        public var timeShare: Double
        /// The median seconds of its tests; `0` when it has none.
        public var medianSeconds: Double
        /// Share of its tests whose final outcome was a failure (0…1).
        public var failureRate: Double
        /// Share of its tests that passed on retry (0…1).
        public var flakyRate: Double
    }

    /// The run reported on; `nil` when the report spans several runs.
    public var run: String?
    /// How many runs the report covers.
    public var runs: Int
    /// One entry per layer, always unit, integration and ui in that order.
    public var layers: [LayerFigures]
    /// The suite's shape by count of tests.
    public var verdict: PyramidVerdict
    /// Why: the count shares and what makes them that shape, for people.
    public var reason: String
}

/// Builds a ``PyramidReport`` from samples: pure, no I/O.
public enum PyramidAnalysis {
    /// The per-layer figures of `samples` and the verdict on their count shares.
    ///
    /// - Parameters:
    ///   - run: the run reported on; `nil` when the samples span several runs.
    ///   - runs: how many runs the samples come from.
    ///   - samples: the tests, one sample each.
    /// - Returns: the report, ``PyramidVerdict/empty`` when there are no samples.
    public static func report(run: String?, runs: Int, samples: [PyramidSample]) -> PyramidReport {
        let total = samples.count
        let totalSeconds = samples.reduce(0) { $0 + $1.seconds }
        let layers = Layer.allCases.map { layer in
            let inLayer = samples.filter { $0.layer == layer }
            let seconds = inLayer.reduce(0) { $0 + $1.seconds }
            let count = Double(inLayer.count)
            return PyramidReport.LayerFigures(
                layer: layer, tests: inLayer.count,
                share: total == 0 ? 0 : count / Double(total),
                seconds: seconds,
                timeShare: totalSeconds > 0 ? seconds / totalSeconds : 0,
                medianSeconds: Statistics.median(inLayer.map(\.seconds)),
                failureRate: count == 0 ? 0 : Double(inLayer.filter(\.failed).count) / count,
                flakyRate: count == 0 ? 0 : Double(inLayer.filter(\.flaky).count) / count)
        }
        let (verdict, reason) = judge(
            unit: layers[0].share, integration: layers[1].share, ui: layers[2].share, total: total)
        return PyramidReport(run: run, runs: runs, layers: layers, verdict: verdict, reason: reason)
    }

    /// The verdict for count shares `unit`, `integration` and `ui` (each 0…1), with its reason.
    ///
    /// The shapes are tried in order: pyramid, ice-cream cone, hourglass, diamond, else uneven.
    ///
    /// - Parameters:
    ///   - u: the unit tests' share of the count.
    ///   - i: the integration tests' share.
    ///   - e: the UI tests' share.
    ///   - total: how many tests there are; `0` gives ``PyramidVerdict/empty``.
    /// - Returns: the verdict and a one-line reason that starts with the three shares.
    public static func judge(unit u: Double, integration i: Double, ui e: Double, total: Int)
        -> (PyramidVerdict, String)
    {
        let shares = "unit \(percent(u)), integration \(percent(i)), UI \(percent(e))"
        guard total > 0 else { return (.empty, "no tests were recorded") }
        if u >= i, i >= e, u >= 0.5, e <= 0.2 {
            return (.pyramid, "\(shares): a broad unit base, few UI tests")
        }
        if (e > i && i > u) || (e >= 0.4 && u < 0.3) {
            return (.iceCreamCone, "\(shares): UI tests outnumber the faster layers below them")
        }
        if u >= 2 * i, e >= 2 * i, i < 0.15 {
            return (.hourglass, "\(shares): unit and UI tests with a thin integration middle")
        }
        if i > u, i > e {
            return (.diamond, "\(shares): integration tests outnumber unit and UI tests")
        }
        var faults: [String] = []
        if u < 0.5 { faults.append("unit tests are under half") }
        if e > 0.2 { faults.append("UI tests are over 20%") }
        if i < e { faults.append("fewer integration than UI tests") }
        if u < i { faults.append("fewer unit than integration tests") }
        return (.uneven, "\(shares): " + (faults.isEmpty ? "no clear shape" : faults.joined(separator: "; ")))
    }

    static func percent(_ share: Double) -> String {
        "\(Int((share * 100).rounded()))%"
    }
}
