import LedgerCore
import Testing

/// CODEOWNERS as GitHub documents it, each rule on its own so that no later line hides it.
@Suite struct CodeOwnersTests {
    func owners(_ line: String, _ path: String) -> [String]? {
        CodeOwners(parsing: line).rule(for: path)?.owners
    }

    @Test func aStarOwnsEveryFile() {
        #expect(owners("*  @global-owner1 @global-owner2", "a/b/c.swift") == ["@global-owner1", "@global-owner2"])
        #expect(owners("*  @global", "README.md") == ["@global"])
    }

    @Test func anExtensionMatchesAtAnyDepthAndAnInlineCommentIsLeftOut() {
        #expect(owners("*.js    @js-owner #This is an inline comment.", "src/app/main.js") == ["@js-owner"])
        #expect(owners("*.js    @js-owner", "src/app/main.ts") == nil)
    }

    @Test func dirStarOwnsOnlyTheFilesDirectlyInIt() {
        #expect(owners("docs/*  docs@example.com", "docs/getting-started.md") == ["docs@example.com"])
        #expect(owners("docs/*  docs@example.com", "docs/build-app/troubleshooting.md") == nil)
    }

    @Test func aDirectoryWithoutALeadingSlashMatchesAnywhere() {
        #expect(owners("apps/ @octocat", "apps/web/index.swift") == ["@octocat"])
        #expect(owners("apps/ @octocat", "src/apps/index.swift") == ["@octocat"])
        // A trailing slash names a directory: a file called apps is not in it.
        #expect(owners("apps/ @octocat", "src/apps") == nil)
    }

    @Test func aLeadingSlashAnchorsAtTheRoot() {
        #expect(owners("/docs/ @doctocat", "docs/a/b.md") == ["@doctocat"])
        #expect(owners("/docs/ @doctocat", "src/docs/b.md") == nil)
        #expect(owners("/build/logs/ @doctocat", "build/logs/today.log") == ["@doctocat"])
        #expect(owners("/build/logs/ @doctocat", "x/build/logs/today.log") == nil)
        // An inner slash anchors too.
        #expect(owners("Tests/UI @ui", "Tests/UI/LoginTests.swift") == ["@ui"])
        #expect(owners("Tests/UI @ui", "App/Tests/UI/LoginTests.swift") == nil)
    }

    @Test func doubleStarSpansDirectories() {
        #expect(owners("**/logs @octocat", "logs/a.log") == ["@octocat"])
        #expect(owners("**/logs @octocat", "deep/er/logs/a.log") == ["@octocat"])
        #expect(owners("Tests/**/Snapshot* @snap", "Tests/A/B/SnapshotTests.swift") == ["@snap"])
        #expect(owners("Tests/**/Snapshot* @snap", "Tests/SnapshotTests.swift") == ["@snap"])
        #expect(owners("docs/** @d", "docs/a/b/c.md") == ["@d"])
        #expect(owners("a?c.swift @q", "x/abc.swift") == ["@q"])
        #expect(owners("a?c.swift @q", "x/a/c.swift") == nil)
    }

    @Test func theLastMatchingLineWinsAndALineWithoutOwnersLeavesFilesUnowned() {
        let file = CodeOwners(
            parsing: """
                # comment
                *                @everyone
                /apps/           @octocat
                /apps/github
                /Tests/Checkout/ @shop   @payments
                """)
        #expect(file.rule(for: "apps/web/x.swift")?.owners == ["@octocat"])
        #expect(file.rule(for: "apps/github/x.swift")?.owners == [])
        #expect(file.rule(for: "apps/github/x.swift")?.line == 4)
        #expect(file.rule(for: "Tests/Checkout/CartTests.swift")?.owners == ["@shop", "@payments"])
        #expect(file.rule(for: "Sources/App.swift")?.owners == ["@everyone"])
    }

    @Test func negationIsUnsupportedAndAnEscapedSpaceIsPartOfThePattern() {
        let file = CodeOwners(parsing: "* @all\n!*.md @nobody\nMy\\ Tests/ @spaced\n")
        #expect(file.rules.map(\.pattern) == ["*", "My Tests/"])
        #expect(file.rule(for: "README.md")?.owners == ["@all"])
        #expect(file.rule(for: "My Tests/A.swift")?.owners == ["@spaced"])
    }

    @Test func testsFindTheirOwnersThroughTheirFiles() {
        let ownership = Ownership(
            codeowners: "* @app\n/Tests/Checkout/ @shop\n/AppUITests/ @ui\n",
            rules: [OwnerRule(pattern: "*/testFlakyPayment", owners: ["@payments"])], root: "/home/dev/App",
            topLevel: ["AppUITests", "Sources", "Tests"])
        let owners = TestOwners(
            ownership,
            files: [
                "Cart/testTotal": "Tests/Checkout/CartTests.swift",
                "Cart/testFlakyPayment": "Tests/Checkout/CartTests.swift",
                "Login/testHere": "/home/dev/App/AppUITests/LoginTests.swift",
                "Login/testOnCI": "/Users/runner/work/App/App/AppUITests/LoginTests.swift",
                "Relative/dot": "./Tests/Checkout/X.swift",
                "Elsewhere/test": "/opt/vendor/Thing.swift",
            ])
        #expect(owners("Cart/testTotal") == ["@shop"])
        #expect(owners("Cart/testFlakyPayment") == ["@payments"], "a .testledger.yml rule wins")
        #expect(owners("Login/testHere") == ["@ui"], "under the checkout")
        #expect(owners("Login/testOnCI") == ["@ui"], "another machine's path, from its top-level directory")
        #expect(owners("Relative/dot") == ["@shop"])
        #expect(owners("Elsewhere/test") == [], "outside the repository")
        #expect(owners("Unknown/test") == [], "no file")
        #expect(["@Shop"].includesOwner("@shop"))
        #expect(TestOwners.none("Cart/testTotal") == [])
    }
}
