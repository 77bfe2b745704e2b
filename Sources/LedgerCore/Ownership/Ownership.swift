/// Who owns a project's tests: its `CODEOWNERS` file and `.testledger.yml`'s owner rules, as read
/// from a checkout.
///
/// Kept in the ledger per project, so that reports made away from the checkout (the server's
/// dashboard, a ledger copied off CI) still name owners.
public struct Ownership: Codable, Hashable, Sendable {
    /// The text of the `CODEOWNERS` file; `nil` when the checkout has none.
    public var codeowners: String?
    /// Where the `CODEOWNERS` file is, from the repository's root (`.github/CODEOWNERS`).
    public var codeownersPath: String?
    /// Rules by test id, from `.testledger.yml`; a matching one wins over `CODEOWNERS`.
    public var rules: [OwnerRule]
    /// The checkout's absolute path where this was read; test files under it are taken relative to it.
    public var root: String?
    /// The names at the top of the repository, to find where an absolute path from another machine
    /// enters the repository.
    public var topLevel: [String]

    /// Creates ownership from its parts.
    ///
    /// - Parameters:
    ///   - codeowners: the text of the `CODEOWNERS` file.
    ///   - codeownersPath: where that file is, from the repository's root.
    ///   - rules: rules by test id.
    ///   - root: the checkout's absolute path.
    ///   - topLevel: the names at the top of the repository.
    public init(
        codeowners: String? = nil, codeownersPath: String? = nil, rules: [OwnerRule] = [], root: String? = nil,
        topLevel: [String] = []
    ) {
        self.codeowners = codeowners
        self.codeownersPath = codeownersPath
        self.rules = rules
        self.root = root
        self.topLevel = topLevel
    }

    /// Whether there is anything to name owners by.
    public var isEmpty: Bool { codeowners == nil && rules.isEmpty }

    /// Where GitHub looks for the file, in the order it looks.
    public static let codeownersLocations = [".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"]
}

/// A rule from `.testledger.yml`: tests whose id matches `pattern` belong to `owners`.
public struct OwnerRule: Codable, Hashable, Sendable {
    /// A ``Glob`` pattern matched against the whole test id.
    public var pattern: String
    /// The owners; empty leaves the tests unowned.
    public var owners: [String]

    /// Creates a rule.
    ///
    /// - Parameters:
    ///   - pattern: a ``Glob`` pattern for the test id.
    ///   - owners: the owners of the tests it matches.
    public init(pattern: String, owners: [String]) {
        self.pattern = pattern
        self.owners = owners
    }
}
