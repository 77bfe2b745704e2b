import Foundation
import LedgerCore
import LedgerStore

/// `select --replay`: the ledger's runs whose revisions the checkout holds, each with what its
/// revision changed and its targets' hashes at that revision, replayed through selection.
///
/// The package graph is the checkout's as it is now; a revision's files are hashed by git's own
/// object names (`git ls-tree`), and its toolchain is not known, so it is left out of the hashes.
package enum SelectionReplayHistory {
    /// - Parameters:
    ///   - packagePath: the package's folder.
    ///   - base: the base branch.
    ///   - store: the ledger.
    ///   - project: whose runs to replay.
    ///   - count: how many of the newest runs.
    ///   - config: `.testledger.yml`: its `select` and its report window.
    /// - Returns: each replayed run, newest first, and the totals.
    /// - Throws: ``SelectionCheckout/Problem`` outside a git checkout or when SwiftPM cannot
    ///   describe the package; what reading the ledger throws.
    package static func report(
        packagePath: String, base: String, store: any ResultStore, project: String, runs count: Int,
        config: ProjectConfiguration
    ) throws -> SelectionReport {
        let package = URL(fileURLWithPath: packagePath).standardizedFileURL.path
        guard let repository = GitInfo.topLevel(in: package) else {
            throw SelectionCheckout.Problem(
                description: "\(package) is not in a git checkout: --replay reads its history")
        }
        let (root, locals) = try SelectionCheckout.describe(package)
        let graph = try SelectionCheckout.graph(
            root: root, locals: locals, repository: repository, uses: config.select.uses)
        let listings = Dictionary(
            try store.runs(project: project, limit: count).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        var runs: [SelectionReplay.Run] = []
        var trees: [String: [String: String]] = [:]
        for stored in try store.windowRuns(project: project, count: count, since: nil).reversed() {
            guard let revision = stored.revision, let listing = listings[stored.id],
                let mergeBase = SelectionCheckout.mergeBase(base, in: repository, of: revision)
            else { continue }
            let tree = trees[revision] ?? Self.tree(revision, in: repository)
            trees[revision] = tree
            let resolved = graph.packages.first.flatMap {
                tree[$0.isEmpty ? "Package.resolved" : $0 + "/Package.resolved"]
            }
            runs.append(
                SelectionReplay.Run(
                    run: stored.id, revision: revision, branch: listing.branch, at: stored.startedAt,
                    cutShort: listing.status == .interrupted || listing.crashed > 0,
                    changedFiles: SelectionCheckout.gitList(
                        ["diff", "--name-only", "--no-renames", "-z", mergeBase, revision], in: repository),
                    hashes: TargetHashes.hashes(
                        graph: graph, files: Self.files(of: graph, in: tree),
                        shared: [resolved ?? "", "", stored.configuration + "\u{0}"]),
                    attempts: try store.attemptTimes(run: stored.id)))
        }
        return SelectionReplay.replay(
            runs, graph: graph, base: base, ignore: config.select.ignorePatterns,
            unskippable: config.select.unskippable,
            window: config.reportWindow)
    }

    /// Every file of `revision`, by path from the repository's root, with git's name for its bytes;
    /// empty when the checkout does not hold the revision.
    private static func tree(_ revision: String, in repository: String) -> [String: String] {
        var files: [String: String] = [:]
        for entry in SelectionCheckout.gitList(["ls-tree", "-r", "-z", revision], in: repository) {
            // `MODE TYPE NAME\tPATH`
            guard let tab = entry.firstIndex(of: "\t") else { continue }
            let fields = entry[..<tab].split(separator: " ")
            if fields.count == 3 { files[String(entry[entry.index(after: tab)...])] = String(fields[2]) }
        }
        return files
    }

    private static func files(of graph: PackageGraph, in tree: [String: String]) -> [String: [String: String]] {
        var files: [String: [String: String]] = [:]
        for target in graph.targets.values {
            let prefix = target.path + "/"
            files[target.name] = Dictionary(
                uniqueKeysWithValues: tree.filter { $0.key.hasPrefix(prefix) }.map {
                    ("/" + $0.key.dropFirst(prefix.count), $0.value)
                })
        }
        return files
    }
}
