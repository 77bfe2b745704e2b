import Foundation

/// What `xcodebuild test -enumerate-tests -test-enumeration-style flat -test-enumeration-format
/// json` writes, read as the ledger names tests.
public enum XcodebuildTestList {
    private struct Enumeration: Decodable {
        struct Plan: Decodable {
            struct Test: Decodable { var identifier: String }
            var enabledTests: [Test]?
        }
        var errors: [String]?
        var values: [Plan]?
    }

    /// The enabled tests of every test plan, as the ledger names them (`Target/Class/test()` →
    /// `Target.Class/test()`), each once, sorted.
    /// - Throws: ``LedgerInputError`` naming `source` when the file is not an enumeration, or
    ///   reports errors.
    public static func stableIDs(enumeration data: Data, source: String) throws -> [String] {
        let enumeration: Enumeration
        do {
            enumeration = try JSONDecoder().decode(Enumeration.self, from: data)
        } catch {
            throw LedgerInputError(
                source: source, problem: "not xcodebuild's test enumeration: \(error)",
                fix: "run the same xcodebuild command with -enumerate-tests to see what it writes")
        }
        if let errors = enumeration.errors, !errors.isEmpty {
            throw LedgerInputError(
                source: source, problem: "xcodebuild could not list the tests: " + errors.joined(separator: "; "),
                fix: "check that the scheme builds and has a test plan")
        }
        let identifiers = (enumeration.values ?? []).flatMap { $0.enabledTests ?? [] }.map(\.identifier)
        return Set(identifiers.map(stableID(identifier:))).sorted()
    }

    /// `Target/Class/test()` → `Target.Class/test()`; an identifier of one part is kept.
    static func stableID(identifier: String) -> String {
        guard let slash = identifier.firstIndex(of: "/"), identifier[identifier.index(after: slash)...].contains("/")
        else { return identifier }
        return identifier[..<slash] + "." + identifier[identifier.index(after: slash)...]
    }

    /// A test id without what tells its runs apart in a result bundle — a configuration
    /// (`testLaunch (Dark Appearance, Portrait)`), a parameterized test's arguments
    /// (`flag("beta")` for `flag(_:)`), a trailing `()` — so that what was listed and what ran
    /// are compared alike.
    public static func comparable(_ id: String) -> Substring {
        guard let open = id.firstIndex(of: "(") else { return Substring(id) }
        var end = open
        while end > id.startIndex, id[id.index(before: end)] == " " { end = id.index(before: end) }
        return id[..<end]
    }
}
