import Foundation
import LedgerTestSupport
import Testing

/// `record` and `verify` of `swift test --package-path DIR`, run from another folder, take the
/// project from DIR's checkout, as a run made from DIR names it.
struct PackagePathProjectTests {
    @Test func theProjectIsThePackagesNotTheWorkingFolders() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        // A folder that is no package: swift test refuses at once, and the run is stored all the same.
        try cli.directory.write("checkouts/Inventory/README.md", "no package here\n")
        try cli.directory.write("checkouts/Configured/.testledger.yml", "project: Warehouse\n")
        for folder in ["Inventory", "Configured"] {
            let recorded = try await cli.run(
                ["record", "--", "swift", "test", "--skip-build", "--package-path", "checkouts/\(folder)"])
            #expect(recorded.status != 0, "\(recorded.stderr.suffix(1_000))")
        }
        let runs = try #require(try await cli.json(["runs"]) as? [[String: Any]])
        #expect(Set(runs.compactMap { $0["project"] as? String }) == ["Inventory", "Warehouse"], "\(runs)")
        // verify looks for the test's history in the same project, and says which it looked in.
        let verified = try await cli.run(
            ["verify", "Inventory.Tests/testCount", "--", "swift", "test", "--package-path", "checkouts/Inventory"])
        #expect(verified.status == 64)
        #expect(verified.stderr.contains("runs of Inventory"), "\(verified.stderr)")
    }

    @Test func anUnreadableConfigurationIsSaidWhereItNamesTheProject() async throws {
        let cli = try CLI()
        defer { cli.directory.remove() }
        try cli.directory.write(".testledger.yml", "project: [unclosed\n")
        let listed = try await cli.run(["quarantine", "list"])
        #expect(listed.status == 1, "\(listed.stderr)")
        #expect(listed.stderr.contains(".testledger.yml") && listed.stderr.contains("docs/configuration.md"))
        // With the project named, nothing needs the file's.
        let named = try await cli.run(["quarantine", "list", "--project", "Shop"])
        #expect(named.status == 0, "\(named.stderr)")
    }
}
