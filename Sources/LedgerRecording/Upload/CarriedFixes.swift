import Foundation
import LedgerCore
import LedgerDelivery
import LedgerStore

/// What a run sent to a team's server says of the fixes it carries: the server has no checkout to
/// trace a merge through, so the checkout that sends a run of the default branch names the
/// server's pending fixes whose revisions its revision descends from, in the run's label
/// ``RecordedFix/carriedLabel``.
package enum CarriedFixes {
    /// `metadata` with the label, when its run is of the default branch and carries a pending fix.
    /// - Parameters:
    ///   - metadata: the run's metadata.
    ///   - config: the project's configuration (its `fixLanding.branch`).
    ///   - client: the server, asked for its fixes.
    ///   - checkout: the checkout git answers in; `nil` (not a checkout) labels nothing.
    /// - Returns: the metadata, labelled or not, and why the server's fixes could not be read.
    package static func labelling(
        _ metadata: RunMetadata, config: ProjectConfiguration, client: ServerClient, checkout: String?
    ) -> (metadata: RunMetadata, problem: String?) {
        guard let revision = metadata.revision, let checkout,
            metadata.branch == FixLanding(branch: config.fixLanding.branch, checkout: checkout).defaultBranch
        else { return (metadata, nil) }
        switch client.get([RecordedFix].self, project: metadata.project, path: "fixes") {
        case .success(let fixes):
            let carried = Set(fixes.filter { $0.state == .pending }.map(\.revision))
                .filter { GitAncestry.descends(revision, from: $0, in: checkout) }.sorted()
            guard !carried.isEmpty else { return (metadata, nil) }
            var labelled = metadata
            labelled.labels = (metadata.labels ?? [:]).merging(
                [RecordedFix.carriedLabel: carried.joined(separator: " ")]) { $1 }
            return (labelled, nil)
        case .failure(let error):
            return (metadata, "the server's fixes could not be read (\(error.message)): this run lands none")
        }
    }
}
