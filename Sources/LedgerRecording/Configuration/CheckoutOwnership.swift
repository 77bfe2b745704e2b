import Foundation
import LedgerCore
import LedgerDelivery
import LedgerStore

/// The ownership of the checkout a command runs in: `CODEOWNERS` where GitHub looks for it, from
/// git's top level (else the working directory), and `.testledger.yml`'s `owners` rules.
package enum CheckoutOwnership {
    package static func read(
        _ config: ProjectConfiguration, directory: String = FileManager.default.currentDirectoryPath
    ) -> Ownership {
        let root = GitInfo.topLevel(in: directory) ?? directory
        let rootURL = URL(fileURLWithPath: root)
        var ownership = Ownership(rules: config.owners, root: root)
        for location in Ownership.codeownersLocations {
            if let text = try? String(contentsOf: rootURL.appending(path: location), encoding: .utf8) {
                ownership.codeowners = text
                ownership.codeownersPath = location
                break
            }
        }
        guard !ownership.isEmpty else { return Ownership() }
        ownership.topLevel = CheckoutFolder.topLevel(of: root)
        return ownership
    }

    /// The owners of `project`'s tests: by the checkout's rules when it has any, else by the
    /// ones kept in the ledger.
    package static func owners(
        of project: String, config: ProjectConfiguration, in database: any ResultStore
    ) throws -> TestOwners {
        let checkout = read(config)
        return try database.testOwners(project: project, ownership: checkout.isEmpty ? nil : checkout)
    }
}
