import Foundation
import LedgerCore

/// A CI history written as Ledger event streams, one file per run: planted flaky, broken and fixed
/// tests over two configurations and two branches, retries, durations, issues, activities,
/// captures, predicates and attachments, a run that never ended and a second project. The same
/// seed gives the same files.
public enum GeneratedHistory {
    /// The event-stream files' contents, oldest run first.
    public static func files(seed: UInt64 = 7, runs: Int = 36, testsPerKind: Int = 4) -> [String] {
        var numbers = SeededNumbers(seed: seed)
        let kinds = PlantedKind.allCases
        var attempts: [String: [[Outcome]]] = [:]
        for kind in kinds {
            for index in 0..<testsPerKind {
                attempts["ShopTests.\(kind.rawValue.capitalized)Tests/test\(index)"] = kind.attempts(
                    runs: runs, &numbers)
            }
        }
        let tests = attempts.keys.sorted()
        var files: [String] = []
        for run in 0..<runs {
            let id = String(format: "00000000-0000-4000-8000-%012d", run)
            let start = 1_790_000_000.0 + Double(run) * 3_600
            let project = run % 9 == 8 ? "Admin" : "Shop"
            let branch = run % 4 == 3 ? "feature/cart" : "main"
            let configuration = run % 2 == 0 ? "iPhone 16 / iOS 18" : "iPad / iOS 18"
            var lines = [
                line(
                    "run.start", id, start,
                    [
                        "project": .string(project), "source": .string("xctest"),
                        "revision": .string(String(format: "%040x", run / 3)), "branch": .string(branch),
                        "configuration": .string(configuration),
                    ])
            ]
            var clock = start
            for test in tests {
                let outcomes = attempts[test]?[run] ?? [.passed]
                for (index, outcome) in outcomes.enumerated() {
                    let attempt = index + 1
                    clock += 0.001 * Double(1 + numbers.below(9))
                    let duration = Double(numbers.below(2_000)) / 997
                    var start: [String: JSONValue] = ["test": .string(test), "attempt": .number(Double(attempt))]
                    if attempt == 1 {
                        start["file"] = .string("Tests/ShopTests/\(test.split(separator: "/")[0]).swift")
                        start["line"] = .number(Double(10 + test.count))
                        if test.hasPrefix("ShopTests.Broken") { start["layer"] = .string("ui") }
                    }
                    lines.append(line("test.start", id, clock, start))
                    let base: [String: JSONValue] = ["test": .string(test), "attempt": .number(Double(attempt))]
                    if test.hasSuffix("test1") {
                        lines += details(id, clock, base, activity: "\(run)-\(test)-\(attempt)", held: outcome.isPass)
                    }
                    if outcome.isFailure {
                        var issue = base
                        issue["message"] = .string("XCTAssertEqual failed: (\"\(run % 3)\") is not equal to (\"4\")")
                        issue["file"] = .string("Tests/ShopTests/Fixture.swift")
                        issue["line"] = .number(Double(40 + run % 2))
                        issue["kind"] = .string("assertion")
                        lines.append(line("issue", id, clock + duration / 2, issue))
                    }
                    var end = base
                    end["outcome"] = .string(outcome.rawValue)
                    end["duration"] = .number(duration)
                    if outcome.isFailure, run % 5 == 0 { end["message"] = .string("failed on the CI machine") }
                    // The run that never ended leaves its last test running.
                    if run == runs - 2, test == tests.last { continue }
                    lines.append(line("test.end", id, clock + duration, end))
                    clock += duration
                }
            }
            if run != runs - 2 {
                lines.append(line("run.end", id, clock + 1, [:]))
            }
            files.append(lines.joined(separator: "\n") + "\n")
        }
        return files
    }

    private static func details(
        _ run: String, _ at: Double, _ base: [String: JSONValue], activity: String, held: Bool
    ) -> [String] {
        var outer = base
        outer["activity"] = .string(activity)
        outer["name"] = .string("Open the cart")
        var inner = base
        inner["activity"] = .string(activity + ".1")
        inner["parent"] = .string(activity)
        inner["name"] = .string("Tap “Delete”")
        var capture = base
        capture["verifier"] = .string("AlertVerifier")
        capture["activity"] = .string(activity + ".1")
        capture["fields"] = .object(["title": .string("Delete?"), "animated": .bool(true)])
        var predicate = base
        predicate["name"] = .string("spinner gone")
        predicate["expect"] = .string("holds")
        predicate["held"] = .bool(held)
        predicate["attempts"] = .number(held ? 3 : 40)
        predicate["waited"] = .number(held ? 0.03 : 2)
        predicate["timeout"] = .number(2)
        var attachment = base
        attachment["name"] = .string("Screenshot")
        attachment["mediaType"] = .string("image/png")
        attachment["size"] = .number(2_048)
        return [
            line("activity.start", run, at + 0.0001, outer),
            line("activity.start", run, at + 0.0002, inner),
            line("capture", run, at + 0.0003, capture),
            line(
                "activity.end", run, at + 0.0004, ["activity": .string(activity + ".1"), "outcome": .string("passed")]),
            line("activity.end", run, at + 0.0005, ["activity": .string(activity)]),
            line("predicate", run, at + 0.0006, predicate),
            line("attachment", run, at + 0.0007, attachment),
        ]
    }

    /// One event of the stream as its JSON line.
    public static func line(_ type: String, _ run: String, _ at: Double, _ fields: [String: JSONValue]) -> String {
        var object = fields
        object["v"] = .number(1)
        object["type"] = .string(type)
        object["run"] = .string(run)
        object["at"] = .number(at)
        return JSONValue.object(object).jsonText
    }
}
