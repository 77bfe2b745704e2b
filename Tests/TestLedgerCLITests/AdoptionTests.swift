import Foundation
import LedgerTestSupport
import Testing

/// A new adopter copies the README's adoption lines: its graph must be TestLedger and GRDB.
@Suite struct AdoptionTests {
    /// The README's `.package(…)` and `.testTarget(…)` lines, as a user copies them.
    static func adoptionLines() async throws -> (package: String, testTarget: String) {
        let readme = try String(contentsOf: CLI.packageRoot.appending(path: "README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let package = try #require(lines.first { $0.hasPrefix(".package(url:") && $0.contains("testledger") })
        let testTarget = try #require(lines.first { $0.hasPrefix(".testTarget(") && $0.contains("TestLedger") })
        return (package, testTarget)
    }

    @Test func anAdopterCopyingTheReadmeResolvesTestLedgerAndGRDBOnly() async throws {
        let (packageLine, testTargetLine) = try await Self.adoptionLines()
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        // SwiftPM names a local package after its folder: the README's `package: "testledger"`.
        let checkout = folder.url.appending(path: "testledger")
        try FileManager.default.createSymbolicLink(at: checkout, withDestinationURL: CLI.packageRoot)
        // Only where the package comes from changes: a path instead of a URL and version.
        let local = packageLine.replacing(#/url: "[^"]*", from: "[^"]*"/#, with: "path: \"\(checkout.path)\"")
        #expect(local != packageLine)
        let adopter = folder.url.appending(path: "Adopter")
        for target in ["Sources/App", "Tests/AppTests"] {
            try FileManager.default.createDirectory(
                at: adopter.appending(path: target), withIntermediateDirectories: true)
        }
        try "public let app = 1\n".write(
            to: adopter.appending(path: "Sources/App/App.swift"), atomically: true, encoding: .utf8)
        try "import TestLedger\nimport XCTest\n".write(
            to: adopter.appending(path: "Tests/AppTests/AppTests.swift"), atomically: true, encoding: .utf8)
        try """
        // swift-tools-version:6.1
        import PackageDescription

        let package = Package(
            name: "Adopter",
            dependencies: [
                \(local)
            ],
            targets: [
                .target(name: "App"),
                \(testTargetLine)
            ]
        )
        """.write(to: adopter.appending(path: "Package.swift"), atomically: true, encoding: .utf8)

        let output = try await ChildProcess.runTool([
            "swift", "package", "--package-path", adopter.path, "--scratch-path", folder.path("scratch"),
            "show-dependencies", "--format", "json",
        ])
        try #require(output.status == 0, "\(output.stderr.suffix(2_000))")
        let tree = try #require(
            try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let packages = Self.identities(below: tree)
        #expect(packages == ["grdb.swift", "testledger"], "resolved: \(packages.sorted())")
    }

    /// Every package in a `show-dependencies` tree below its root.
    static func identities(below node: [String: Any]) -> Set<String> {
        var found: Set<String> = []
        for child in node["dependencies"] as? [[String: Any]] ?? [] {
            if let identity = child["identity"] as? String { found.insert(identity) }
            found.formUnion(identities(below: child))
        }
        return found
    }
}
