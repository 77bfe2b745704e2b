import Foundation
import LedgerCore
import Testing

/// A planted history of twelve weeks of daily runs: flakiness rising then fixed, the suite's time
/// creeping up, the pyramid tilting toward UI tests; each change must land in its week.
@Suite struct TrendsBuilderTests {
    /// 2026-09-07, a Monday.
    static let start = 1_788_739_200.0
    static let checkout = (0..<5).map { "App.CheckoutTests/pays\($0)" }
    static let cart = (0..<15).map { "App.CartTests/adds\($0)" }
    static let login = (0..<3).map { "AppUITests.LoginTests/logsIn\($0)" }
    static let flows = (0..<6).map { "AppUITests.FlowTests/flow\($0)" }

    static var tests: [TrendsBuilder.Test] {
        (checkout + cart).map { .init(name: $0, layer: .unit) } + (login + flows).map { .init(name: $0, layer: .ui) }
    }

    /// Day `day`'s run: CheckoutTests pass on a retry on days 21–25, two CartTests on day 35; the
    /// UI flows are added in week 6; the last CartTest is removed after week 9; the suite takes
    /// 100 s until week 8, then 150 s and 20 s more each week.
    static func run(day: Int) -> (TrendsBuilder.Run, [TrendsBuilder.Entry]) {
        let week = day / 7
        let names = tests.map(\.name)
        var entries: [TrendsBuilder.Entry] = []
        for (index, name) in names.enumerated() {
            if flows.contains(name), week < 6 { continue }
            if name == cart[14], week > 9 { continue }
            let retried =
                (checkout.firstIndex(of: name).map { day == 21 + $0 } ?? false)
                || (day == 35 && (name == cart[0] || name == cart[1]))
            entries.append(
                .init(test: index, final: .passed, anyPassed: true, anyFailed: retried, seconds: retried ? 4 : 1))
        }
        let seconds = week < 8 ? 100 : 150 + Double(week - 8) * 20
        return (
            .init(
                id: "run-\(day)", at: start + Double(day) * 86_400 + 3_600, revision: "r\(day)", configuration: "",
                seconds: seconds, failed: false),
            entries
        )
    }

    static func report(by grouping: TrendsReport.Grouping = .week) -> TrendsReport {
        var builder = TrendsBuilder(
            project: "Shop", branch: "main", grouping: grouping, window: 30, thresholds: FlakyThresholds(),
            tests: tests)
        for day in 0..<84 {
            let (run, entries) = run(day: day)
            builder.add(run, entries: entries)
        }
        return builder.report()
    }

    @Test func eachPlantedChangeLandsInItsWeek() throws {
        let report = Self.report()
        #expect(report.periods.count == 12 && report.periods.allSatisfy { $0.runs == 7 })
        #expect(report.periods[0].start == "2026-09-07T00:00:00Z" && report.since == "2026-09-07T01:00:00Z")
        // Flakiness rises in weeks 3 and 5, and is gone once the flakes leave the 30-run window.
        let flaky = report.periods.map(\.flaky)
        #expect(flaky[0...2] == [0, 0, 0] && flaky[3] == 5 && flaky[5] == 7, "\(flaky)")
        #expect(report.periods[3].newlyFlaky == Self.checkout)
        #expect(report.periods[5].newlyFlaky == [Self.cart[0], Self.cart[1]])
        let fixed = report.periods.enumerated().flatMap { week, period in period.fixed.map { (week, $0) } }
        #expect(Set(fixed.map(\.1)) == Set(Self.checkout + Self.cart[0...1]) && flaky.last == 0, "\(fixed)")
        // Fixed once the quiet runs since its flake are evidence (report flaky's "recovered"),
        // which takes more than a week: weeks after the flake, never in it.
        let flakeWeek = Dictionary(
            uniqueKeysWithValues: Self.checkout.map { ($0, 3) } + Self.cart[0...1].map { ($0, 5) })
        #expect(fixed.allSatisfy { $0.0 >= flakeWeek[$0.1, default: 99] + 2 }, "\(fixed)")
        // The flaky tests' runs cost their seconds.
        #expect(report.periods[3].lostSeconds == 20 && report.periods[2].lostSeconds == 0)
        // The suite's time creeps up from week 8.
        #expect(report.periods.map(\.wallTime.median) == Array(repeating: 100, count: 8) + [150, 170, 190, 210])
        // UI flows are added in week 6; the last CartTest ran last in week 9.
        #expect(report.periods[6].testsAdded == 6 && report.periods.map(\.testsAdded).reduce(0, +) == 6)
        #expect(report.periods[10].testsRemoved == 1 && report.periods.map(\.testsRemoved).reduce(0, +) == 1)
        #expect(
            abs(report.periods[5].pyramid.ui - 3.0 / 23) < 1e-9 && abs(report.periods[6].pyramid.ui - 9.0 / 29) < 1e-9)
    }

    @Test func theChangesAreSaidWhereTheyHappened() {
        let changes = Self.report().changes
        let words = Dictionary(changes.map { ($0.series, $0.words) }) { first, _ in first }
        #expect(
            words["flaky"] == "flaky tests 0 → 5 in the week of 2026-09-28: 5 newly flaky, 5 in CheckoutTests",
            "\(changes)")
        #expect(words["wallTime.median"] == "the suite's time (median) 100s → 150s in the week of 2026-11-02")
        #expect(words["pyramid.ui"] == "UI tests' share 13% → 31% in the week of 2026-10-19")
        #expect(words["failureRate"] == nil, "no run failed")
    }

    @Test func daysAndRunsAreGroupedAsAsked() throws {
        let days = Self.report(by: .day)
        #expect(days.periods.count == 84 && days.periods[21].start == "2026-09-28T00:00:00Z")
        #expect(days.periods[21].newlyFlaky == [Self.checkout[0]] && days.periods[21].flaky == 1)
        let runs = Self.report(by: .run)
        #expect(runs.periods.count == 84 && runs.periods[3].run == "run-3")
        #expect(runs.periods[3].start == "2026-09-10T01:00:00Z")
        let said = try #require(runs.changes.first { $0.series == "flaky" })
        #expect(said.words.contains("in run run-21 (2026-09-28)") || said.words.contains("in run run-35"), "\(said)")
    }

    /// Ten daily runs at one revision, by turns on two simulators, judged over 8 runs: `t0` passes
    /// on a retry in runs 3 and 5 (iOS 18), and has recovered once run 1's pass left the window;
    /// `t1` fails in run 2 on iOS 17, where it ran only then, and passes on iOS 18; every test fails
    /// in run 6 (iOS 17), infrastructure noise.
    @Test func eachConfigurationIsJudgedApartNoiseIsNotEvidenceAndOldRunsLeaveTheWindow() {
        let names = (0..<6).map { "App.SyncTests/t\($0)" }
        var builder = TrendsBuilder(
            project: "Shop", branch: nil, grouping: .run, window: 8, thresholds: FlakyThresholds(),
            tests: names.map { .init(name: $0, layer: .unit) })
        for number in 0..<10 {
            let configuration = number.isMultiple(of: 2) ? "iOS 17" : "iOS 18"
            let entries: [TrendsBuilder.Entry] = names.indices.compactMap { test in
                if test == 1, number.isMultiple(of: 2), number != 2 { return nil }
                let failed = number == 6 || (test == 1 && number == 2)
                let retried = test == 0 && (number == 3 || number == 5)
                return .init(
                    test: test, final: failed ? .failed : .passed, anyPassed: !failed, anyFailed: failed || retried,
                    seconds: 1)
            }
            builder.add(
                .init(
                    id: "run-\(number)", at: Self.start + Double(number) * 86_400, revision: "r1",
                    configuration: configuration, seconds: 10, failed: number == 6),
                entries: entries)
        }
        let periods = builder.report().periods
        #expect(periods.map(\.flaky) == [0, 0, 0, 1, 1, 1, 1, 1, 1, 0], "\(periods.map(\.flaky))")
        #expect(periods[3].newlyFlaky == [names[0]] && periods[9].fixed == [names[0]])
        #expect(periods.allSatisfy { !$0.newlyFlaky.contains(names[1]) })
    }

    @Test func aSparklineSpansTheLowestToTheHighest() {
        #expect(TrendsRendering.sparkline([0, 7, 14]) == "▁▅█")
        #expect(TrendsRendering.sparkline([3, 3]) == "▁▁")
        #expect(TrendsRendering.sparkline([]).isEmpty)
        let text = TrendsRendering.text(Self.report())
        #expect(text.contains("flaky tests") && text.contains("Where it changed most:"), "\(text)")
        #expect(text.hasPrefix("Trends of Shop on main by week, since 2026-09-07: 12 weeks, 84 runs"), "\(text)")
    }
}
