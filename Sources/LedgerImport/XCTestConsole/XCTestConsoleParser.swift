import Foundation
import LedgerCore

/// Reads XCTest's console lines as they are printed and collects each test's result.
///
/// `swift test` writes XCTest's xUnit file only with `--parallel`; without it, the console is
/// the only record. Both the Linux form (`Test Case 'Class.test' passed (0.01 seconds)`) and the
/// Apple form (`Test Case '-[Module.Class test]' passed (0.010 seconds).`) are read.
public struct XCTestConsoleParser: Sendable {
    /// One finished XCTest case as the console told it.
    public struct Result: Hashable, Sendable {
        /// `Class` on Linux, `Module.Class` on Apple platforms.
        public var suite: String
        /// The test method's name, such as `testAdds`.
        public var name: String
        /// How it ended: passed, failed or skipped (a passed case for which `Test skipped` was
        /// printed counts as skipped).
        public var outcome: Outcome
        /// The seconds the console says it took; 0 when its line gives none.
        public var duration: Double
        /// When its `started` line was read, in seconds since 1970; without one, when its last line was
        /// read less its duration.
        public var startedAt: Double
        /// The failures printed for it, in order, and its `Test skipped` note, which has no kind.
        public var issues: [LedgerEvent.Issue]
    }

    /// The finished cases, in the order their last lines were read.
    public private(set) var results: [Result] = []
    private var started: [String: Double] = [:]
    private var issues: [String: [LedgerEvent.Issue]] = [:]
    private var skipped: Set<String> = []

    /// Creates a parser that has read nothing.
    public init() {}

    /// Takes one console line, read at `now` (seconds since 1970).
    /// - Parameters:
    ///   - line: the line, without its line break.
    ///   - now: when it was read, in seconds since 1970.
    public mutating func consume(_ line: Substring, now: Double) {
        if line.hasPrefix("Test Case '") {
            guard let (suite, name, rest) = Self.splitCase(line.dropFirst("Test Case '".count)) else { return }
            let key = suite + "/" + name
            if rest.hasPrefix(" started") {
                started[key] = now
                return
            }
            let outcome: Outcome
            if rest.hasPrefix(" passed") {
                outcome = skipped.contains(key) ? .skipped : .passed
            } else if rest.hasPrefix(" failed") {
                outcome = .failed
            } else if rest.hasPrefix(" skipped") {
                outcome = .skipped
            } else {
                return
            }
            let duration = Self.seconds(in: rest)
            results.append(
                Result(
                    suite: suite, name: name, outcome: outcome, duration: duration,
                    startedAt: started.removeValue(forKey: key) ?? now - duration,
                    issues: issues.removeValue(forKey: key) ?? []))
            skipped.remove(key)
        } else if let issue = Self.issue(in: line, now: now) {
            if issue.message.hasPrefix("Test skipped") {
                skipped.insert(issue.key)
            }
            issues[issue.key, default: []].append(issue.event)
        }
    }

    /// The cases that started and never ended, as crashed: the test process ended while they ran
    /// (a crash, a signal, a timeout's kill). Ask once the output is over.
    public var unfinished: [Result] {
        started.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map { key, at in
            let slash = key.lastIndex(of: "/") ?? key.endIndex
            let suite = String(key[..<slash])
            let name = slash < key.endIndex ? String(key[key.index(after: slash)...]) : ""
            let crash = LedgerEvent.Issue(
                at: at, test: key, message: "the test process ended while the test ran", kind: .crash)
            return Result(
                suite: suite, name: name, outcome: .crashed, duration: 0, startedAt: at,
                issues: (issues[key] ?? []) + [crash])
        }
    }

    /// `Class.test' …` or `-[Module.Class test]' …` → suite, name and what follows the quote.
    static func splitCase(_ text: Substring) -> (String, String, Substring)? {
        guard let quote = text.firstIndex(of: "'") else { return nil }
        guard let (suite, name) = splitName(text[..<quote]) else { return nil }
        return (suite, name, text[text.index(after: quote)...])
    }

    static func splitName(_ text: Substring) -> (String, String)? {
        if text.hasPrefix("-["), text.hasSuffix("]") {
            let inner = text.dropFirst(2).dropLast()
            guard let space = inner.firstIndex(of: " ") else { return nil }
            return (String(inner[..<space]), String(inner[inner.index(after: space)...]))
        }
        guard let dot = text.lastIndex(of: ".") else { return nil }
        return (String(text[..<dot]), String(text[text.index(after: dot)...]))
    }

    static func seconds(in text: Substring) -> Double {
        guard let open = text.firstIndex(of: "("),
            let value = Double(text[text.index(after: open)...].prefix { $0.isNumber || $0 == "." })
        else { return 0 }
        return value
    }

    /// `/path/File.swift:12: error: Class.test : message`, the XCTest failure line.
    static func issue(in line: Substring, now: Double) -> (key: String, message: String, event: LedgerEvent.Issue)? {
        guard let separator = line.range(of: ": error: ") ?? line.range(of: ": ") else { return nil }
        let location = line[..<separator.lowerBound]
        guard let colon = location.lastIndex(of: ":"), let number = Int(location[location.index(after: colon)...])
        else { return nil }
        let file = String(location[..<colon])
        let rest = line[separator.upperBound...]
        guard let nameEnd = rest.range(of: " : ") else { return nil }
        guard let (suite, name) = splitName(rest[..<nameEnd.lowerBound]) else { return nil }
        let message = String(rest[nameEnd.upperBound...]).trimmingCharacters(in: .whitespaces)
        let key = suite + "/" + name
        let isSkip = message.hasPrefix("Test skipped")
        return (
            key, message,
            LedgerEvent.Issue(
                at: now, test: key, message: message.hasSuffix(" -") ? String(message.dropLast(2)) : message,
                file: file, line: number, kind: isSkip ? nil : .assertion)
        )
    }
}
