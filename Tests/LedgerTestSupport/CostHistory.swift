import Foundation
import LedgerCore

/// Ten runs whose flaky cost is summed by hand (`report cost`), oldest first, an hour apart:
///
/// | test       | each run            | but                                               |
/// |------------|---------------------|---------------------------------------------------|
/// | A/stable   | passes in 1 s       |                                                   |
/// | A/flaky    | passes in 2 s       | fails (2 s) in runs 2, 5 and 8                    |
/// | A/retried  | passes in 0.5 s     | fails (0.5 s), then passes on a retry (0.5 s), in runs 3 and 6 |
/// | A/broken   | passes in 0.25 s    | fails (0.25 s) in runs 8, 9 and 10                 |
///
/// A run takes 3.75 s (4.25 s with a retry). Runs 2 and 5 failed only because of A/flaky: lost
/// whole, 7.5 s. Run 8 failed A/broken too, so only A/flaky's failed attempt counts there: 2 s.
/// A/flaky costs 9.5 s; A/retried its two failed attempts (1 s) and two re-runs (1 s): 2 s. In
/// all, 11.5 s.
public enum CostHistory {
    public static let start = 1_790_000_000.0
    public static let flaky = "A/flaky"
    public static let retried = "A/retried"
    public static let broken = "A/broken"

    /// The runs, oldest first, the first an hour after `start`.
    public static func runs(from start: Double = start) -> [RunScript] {
        (1...10).map { number in
            var script = RunScript(
                run: String(format: "00000000-0000-4000-8000-%012d", number), project: "Demo",
                at: start + Double(number) * 3_600
            ).start(branch: "main")
            script = script.pass("A/stable", duration: 1)
            script = script.result(flaky, [2, 5, 8].contains(number) ? .failed : .passed, duration: 2)
            if [3, 6].contains(number) {
                script = script.result(retried, .failed, attempt: 1, duration: 0.5)
                    .result(retried, .passed, attempt: 2, duration: 0.5)
            } else {
                script = script.pass(retried, duration: 0.5)
            }
            script = script.result(broken, number >= 8 ? .failed : .passed, duration: 0.25)
            return script.end()
        }
    }
}
