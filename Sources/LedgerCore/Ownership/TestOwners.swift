/// The owners of each test of a project: ``Ownership``'s rules applied to the tests' files.
public struct TestOwners: Sendable {
    private let rules: [OwnerRule]
    private let codeowners: CodeOwners?
    private let paths: RepositoryPaths
    private let files: [String: String]

    /// No owners for any test.
    public static let none = TestOwners(Ownership(), files: [:])

    /// Resolves owners with a project's ownership.
    ///
    /// - Parameters:
    ///   - ownership: the rules.
    ///   - files: the file that declares each test, by test id.
    public init(_ ownership: Ownership, files: [String: String]) {
        rules = ownership.rules
        codeowners = ownership.codeowners.map(CodeOwners.init(parsing:))
        paths = RepositoryPaths(root: ownership.root, topLevel: ownership.topLevel)
        self.files = files
    }

    /// Whether any test can have an owner.
    public var isEmpty: Bool { rules.isEmpty && codeowners == nil }

    /// A test's owners: the last `.testledger.yml` rule matching its id, else the last
    /// `CODEOWNERS` line matching its file; empty when none matches.
    public func callAsFunction(_ test: String) -> [String] {
        if let rule = rules.last(where: { Glob.matches($0.pattern, test) }) { return rule.owners }
        guard let codeowners, let file = files[test], let path = paths.path(file) else { return [] }
        return codeowners.rule(for: path)?.owners ?? []
    }
}

extension Array where Element == String {
    /// Whether these owners include `owner`: GitHub's names are not case-sensitive.
    public func includesOwner(_ owner: String) -> Bool {
        contains { $0.lowercased() == owner.lowercased() }
    }
}
