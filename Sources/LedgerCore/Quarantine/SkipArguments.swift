/// The arguments that keep skipped tests from running, for runners `testledger` does not wrap.
public enum SkipArguments {
    /// The arguments for `runner` that skip `tests` (stable ids, `Module.Class/test`):
    /// `swift test --skip REGEX` and `xcodebuild test -skip-testing:Target/Class/test`; none for a
    /// module, which reads the quarantine list in its environment.
    public static func arguments(for runner: TestRunner, skipping tests: [String]) -> [String] {
        switch runner {
        case .swiftTest: tests.flatMap { ["--skip", swiftTestPattern($0)] }
        case .xcodebuild: tests.map { "-skip-testing:" + xcodebuildName($0) }
        case .module: []
        }
    }

    /// `Module.Class/test` (or `Module.Class`) as xcodebuild names it, `Module/Class/test`: the
    /// module is the test target.
    package static func xcodebuildName(_ id: String) -> String {
        guard let dot = id.firstIndex(of: ".") else { return id }
        if let slash = id.firstIndex(of: "/"), slash < dot { return id }
        return id[..<dot] + "/" + id[id.index(after: dot)...]
    }

    /// A `swift test --filter` pattern for every test of `suite` (`Module.Class` or
    /// `Module.Suite`), under XCTest and Swift Testing, and nothing of a suite whose name merely
    /// starts the same.
    static func swiftTestSuitePattern(_ suite: String) -> String {
        "^" + escapedForRegex(suite) + "(/|\\.|$)"
    }

    /// `swift test` arguments that run only `tests` (stable ids, `Module.Class/test` or
    /// `Module.Suite/test()`): one `--filter` per test, each matching that test alone under
    /// XCTest and Swift Testing, as the `--skip` patterns do.
    public static func swiftTestArguments(selecting tests: [String]) -> [String] {
        tests.flatMap { ["--filter", swiftTestPattern($0)] }
    }

    /// `arguments` on one line for a shell's command substitution, `swift test $(…)`: a shell
    /// splits the result at spaces and keeps quotes as they are, so the words are not quoted (a
    /// pattern writes its spaces as `\x{20}`, and no word has another space).
    public static func substitutionLine(_ arguments: [String]) -> String {
        arguments.joined(separator: " ")
    }

    /// XCTest matches `--skip` against `Module.Class/test`; Swift Testing against
    /// `Module.Suite.test()/File.swift:3:2`, its names joined by dots and its source location after
    /// a slash. One pattern matches the test under either, and nothing whose name merely starts
    /// the same.
    static func swiftTestPattern(_ test: String) -> String {
        let dotted = test.replacingOccurrences(of: "/", with: ".")
        let names = dotted == test ? escapedForRegex(test) : escapedForRegex(test) + "|" + escapedForRegex(dotted)
        return "^(" + names + ")(/|$)"
    }

    private static func escapedForRegex(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character.isWhitespace {
                escaped += character.unicodeScalars.map { "\\x{" + String($0.value, radix: 16) + "}" }.joined()
                continue
            }
            if #"\^$.|?*+()[]{}"#.contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
