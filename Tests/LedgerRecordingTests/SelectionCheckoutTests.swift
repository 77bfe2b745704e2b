import Foundation
import LedgerCore
import LedgerRecording
import LedgerTestSupport
import Testing

/// What selection reads from a real checkout: SwiftPM's description, git's change, and hashes that
/// change with everything a test could read.
@Suite(.serialized) struct SelectionCheckoutTests {
    /// Two libraries and their tests; Shared.swift of Core is linked into UI's folder too.
    static func repository() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        _ = try directory.write(
            "Package.swift",
            """
            // swift-tools-version:6.1
            import PackageDescription

            let package = Package(
                name: "Linked",
                targets: [
                    .target(name: "Core"), .target(name: "UI"),
                    .testTarget(name: "CoreTests", dependencies: ["Core"]),
                    .testTarget(name: "UITests", dependencies: ["UI"]),
                ]
            )
            """)
        _ = try directory.write("Sources/Core/Shared.swift", "public let shared = 1\n")
        _ = try directory.write("Sources/UI/View.swift", "public let view = 2\n")
        try FileManager.default.createSymbolicLink(
            atPath: directory.path("Sources/UI/Shared.swift"), withDestinationPath: "../Core/Shared.swift")
        _ = try directory.write("Tests/CoreTests/CoreTests.swift", "// tests\n")
        _ = try directory.write("Tests/UITests/UITests.swift", "// tests\n")
        _ = try directory.write("Tests/Fixtures/cart.json", "{}\n")
        _ = try directory.write("README.md", "# Linked\n")
        _ = try directory.write(".gitignore", ".build/\nPackage.resolved\n")
        try git(directory, "init", "-q", "-b", "main")
        try git(directory, "add", "-A")
        try git(directory, "commit", "-qm", "base")
        return directory
    }

    static func git(_ directory: TemporaryDirectory, _ arguments: String...) throws {
        let output = try Spawn.run(
            "git", ["-C", directory.url.path, "-c", "user.name=t", "-c", "user.email=t@localhost"] + arguments)
        try #require(output.status == 0)
    }

    static func hashes(_ directory: TemporaryDirectory, _ command: [String] = ["swift", "test"]) throws -> [String:
        String]
    {
        let testCommand = TestCommand(command, outputFolder: FileManager.default.temporaryDirectory)
        return try SelectionCheckout.read(
            packagePath: directory.url.path, base: "main",
            configuration: testCommand.selectionSignature.joined(separator: "\u{0}"),
            ignore: [try #require(PathPattern("*.md"))]
        ).hashes
    }

    @Test func theHashesChangeWithWhatATestCouldRead() throws {
        let directory = try Self.repository()
        defer { directory.remove() }
        let base = try Self.hashes(directory)
        #expect(base.keys.sorted() == ["CoreTests", "UITests"])

        _ = try directory.write("README.md", "# Linked, read me\n")
        #expect(try Self.hashes(directory) == base, "an ignored file")

        _ = try directory.write("Sources/Core/Shared.swift", "public let shared = 3\n")
        let linked = try Self.hashes(directory)
        #expect(linked["CoreTests"] != base["CoreTests"])
        #expect(linked["UITests"] != base["UITests"], "UI holds Shared.swift through its link")

        _ = try directory.write("Tests/Fixtures/cart.json", "{\"items\": []}\n")
        let fixture = try Self.hashes(directory)
        #expect(
            fixture["CoreTests"] != linked["CoreTests"] && fixture["UITests"] != linked["UITests"],
            "a file of no target: on the base branch itself no merge base shows it")

        _ = try directory.write("Package.resolved", "{\"pins\": []}\n")
        let resolved = try Self.hashes(directory)
        #expect(resolved["CoreTests"] != fixture["CoreTests"], "git ignores Package.resolved; the hash does not")

        #expect(try Self.hashes(directory, ["swift", "test", "--scratch-path", "/elsewhere"]) == resolved)
        #expect(try Self.hashes(directory, ["swift", "test", "-c", "release"])["CoreTests"] != resolved["CoreTests"])
        #expect(try Self.hashes(directory, ["swift", "test", "--sanitize=thread"])["UITests"] != resolved["UITests"])
    }

    @Test func theChangeIsMeasuredFromTheMergeBaseUncommittedFilesToo() throws {
        let directory = try Self.repository()
        defer { directory.remove() }
        try Self.git(directory, "checkout", "-q", "-b", "feature")
        _ = try directory.write("Sources/UI/View.swift", "public let view = 4\n")
        try Self.git(directory, "commit", "-qam", "view")
        _ = try directory.write("Sources/UI/Button.swift", "public let button = 5\n")
        _ = try directory.write(".build/debug/output.o", "built\n")
        let checkout = try SelectionCheckout.read(packagePath: directory.url.path, base: "main", configuration: "")
        #expect(checkout.changedFiles == ["Sources/UI/Button.swift", "Sources/UI/View.swift"])
        #expect(checkout.mergeBase != nil && checkout.everything == nil)
        let noBase = try SelectionCheckout.read(packagePath: directory.url.path, base: "nowhere", configuration: "")
        #expect(noBase.everything?.hasPrefix("no merge base with nowhere") == true)
    }

    @Test func anExecutableCountsForTheTestTargetsTheProjectSaysUseIt() throws {
        let directory = try Self.repository()
        defer { directory.remove() }
        let manifest = try String(contentsOf: directory.url.appendingPathComponent("Package.swift"), encoding: .utf8)
        _ = try directory.write(
            "Package.swift",
            manifest.replacingOccurrences(
                of: #".target(name: "Core"),"#, with: #".target(name: "Core"), .executableTarget(name: "tool"),"#))
        _ = try directory.write("Sources/tool/main.swift", "print(1)\n")
        let read = { (uses: [String: [String]]?) in
            try SelectionCheckout.read(packagePath: directory.url.path, base: "main", configuration: "", uses: uses)
        }
        let named = try read(["UITests": ["tool"]])
        #expect(named.graph.closure(of: "UITests").contains("tool"))
        #expect(!named.graph.closure(of: "CoreTests").contains("tool"))
        #expect(try read(nil).graph.closure(of: "CoreTests").contains("tool"), "unsaid, every test target runs it")

        _ = try directory.write("Sources/tool/main.swift", "print(2)\n")
        let changed = try read(["UITests": ["tool"]])
        #expect(changed.hashes["CoreTests"] == named.hashes["CoreTests"])
        #expect(changed.hashes["UITests"] != named.hashes["UITests"])
        #expect(throws: SelectionCheckout.Problem.self, "a misspelt name") { try read(["UITests": ["tol"]]) }
    }
}
