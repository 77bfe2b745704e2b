import LedgerCore
import Testing

@Suite struct PyramidAnalysisTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var unit: Int, integration: Int, ui: Int
        var verdict: PyramidVerdict
        var testDescription: String { "\(unit)/\(integration)/\(ui) → \(verdict.rawValue)" }
    }

    @Test(arguments: [
        Case(unit: 70, integration: 20, ui: 10, verdict: .pyramid),
        Case(unit: 50, integration: 30, ui: 20, verdict: .pyramid),
        Case(unit: 10, integration: 30, ui: 60, verdict: .iceCreamCone),
        Case(unit: 25, integration: 30, ui: 45, verdict: .iceCreamCone),
        Case(unit: 20, integration: 40, ui: 40, verdict: .iceCreamCone),
        Case(unit: 45, integration: 10, ui: 45, verdict: .hourglass),
        Case(unit: 30, integration: 50, ui: 20, verdict: .diamond),
        Case(unit: 40, integration: 35, ui: 25, verdict: .uneven),
        Case(unit: 60, integration: 10, ui: 30, verdict: .hourglass),
        Case(unit: 55, integration: 20, ui: 25, verdict: .uneven),
        Case(unit: 0, integration: 0, ui: 0, verdict: .empty),
    ])
    func verdictFollowsTheShares(_ example: Case) {
        var samples: [PyramidSample] = []
        samples += Array(repeating: PyramidSample(layer: .unit, seconds: 0.01, failed: false), count: example.unit)
        samples += Array(
            repeating: PyramidSample(layer: .integration, seconds: 0.5, failed: false), count: example.integration)
        samples += Array(repeating: PyramidSample(layer: .ui, seconds: 5, failed: true), count: example.ui)
        let report = PyramidAnalysis.report(run: "r", runs: 1, samples: samples)
        #expect(report.verdict == example.verdict)
        #expect(report.layers.map(\.layer) == [.unit, .integration, .ui])
        #expect(!report.reason.isEmpty)
    }

    @Test func figuresPerLayer() {
        let report = PyramidAnalysis.report(
            run: "r", runs: 1,
            samples: [
                .init(layer: .unit, seconds: 1, failed: false),
                .init(layer: .unit, seconds: 3, failed: true),
                .init(layer: .unit, seconds: 2, failed: false, flaky: true),
                .init(layer: .ui, seconds: 14, failed: false),
            ])
        let unit = report.layers[0]
        #expect(unit.tests == 3)
        #expect(unit.share == 0.75)
        #expect(unit.seconds == 6)
        #expect(unit.medianSeconds == 2)
        #expect(abs(unit.failureRate - 1.0 / 3) < 1e-9)
        #expect(abs(unit.flakyRate - 1.0 / 3) < 1e-9)
        #expect(unit.timeShare == 0.3)
        #expect(report.layers[1].tests == 0)
        #expect(report.layers[1].medianSeconds == 0)
        #expect(report.layers[2].timeShare == 0.7)
    }

    @Test func drawingIsWidestAtTheBaseForAPyramid() {
        let report = PyramidAnalysis.report(
            run: nil, runs: 2,
            samples: Array(repeating: .init(layer: .unit, seconds: 0, failed: false), count: 7)
                + Array(repeating: .init(layer: .integration, seconds: 0, failed: false), count: 2)
                + [.init(layer: .ui, seconds: 0, failed: false)])
        let bars = PyramidRendering.drawing(report).split(separator: "\n").map { $0.filter { $0 == "█" }.count }
        #expect(bars == [4, 8, 28])
    }
}
