import Foundation
import LedgerCore

/// What selection reads from the checkout: the package graph SwiftPM describes (local packages
/// too), the files that differ from the merge base with the base branch (uncommitted ones too),
/// and each test target's hash.
package struct SelectionCheckout {
    /// The repository's root.
    package let repository: String
    package let graph: PackageGraph
    /// The base branch's commit the change is measured from; `nil` when none was found.
    package let mergeBase: String?
    package let changedFiles: [String]
    /// Why every test runs whatever changed, when it must (no merge base).
    package let everything: String?
    /// Each test target's hash, by name.
    package let hashes: [String: String]

    /// A problem reading the checkout, said as the fix.
    package struct Problem: Error, CustomStringConvertible {
        package let description: String
    }

    /// Reads the checkout of the package at `packagePath`.
    ///
    /// - Parameters:
    ///   - packagePath: the root package's folder.
    ///   - base: the base branch; `origin/BASE` is tried first, then `BASE`.
    ///   - configuration: what the hashes cover of the build besides files: the run's configuration
    ///     and the test command's words.
    ///   - ignore: `select.ignore`'s patterns: files no test reads.
    ///   - uses: `select.uses`: what test targets build or run that their manifest does not say.
    ///   - ledger: the ledger file, whose files (its write-ahead log, its journals) are no change
    ///     when it lies in the checkout, as SwiftPM's `.build` and `.swiftpm` are not.
    /// - Returns: the graph, the change and the hashes.
    /// - Throws: ``Problem`` outside a git checkout, or when SwiftPM cannot describe a package.
    package static func read(
        packagePath: String, base: String, configuration: String, ignore: [PathPattern] = [],
        uses: [String: [String]]? = nil, ledger: String? = nil
    ) throws -> SelectionCheckout {
        let hashed = try hashed(
            packagePath: packagePath, configuration: configuration, ignore: ignore, uses: uses, ledger: ledger,
            doing: "selection compares it with \(base)")
        let mergeBase = Self.mergeBase(base, in: hashed.repository)
        let changed =
            (mergeBase.map { changedFiles(since: $0, in: hashed.repository) } ?? []).filter { !hashed.isWritten($0) }
        return SelectionCheckout(
            repository: hashed.repository, graph: hashed.graph, mergeBase: mergeBase, changedFiles: changed,
            everything: mergeBase == nil
                ? "no merge base with \(base) (a shallow clone? fetch the base branch, or pass --base)" : nil,
            hashes: hashed.hashes)
    }

    /// The package graph and each test target's hash, without the change: what a full run stores.
    package struct Hashed {
        package let repository: String
        package let graph: PackageGraph
        package let hashes: [String: String]
        /// What the ledger and SwiftPM write (its build and its Xcode folder), from the root down.
        let written: [String]

        /// Whether `file`, from the repository's root, is one the ledger or SwiftPM writes: no change,
        /// ignored by git or not.
        func isWritten(_ file: String) -> Bool { written.contains { (repository + "/" + file).hasPrefix($0) } }
    }

    /// Reads the graph and hashes each test target.
    ///
    /// - Parameters:
    ///   - packagePath: the root package's folder.
    ///   - configuration: what the hashes cover of the build besides files.
    ///   - ignore: `select.ignore`'s patterns: files no test reads.
    ///   - uses: `select.uses`: what test targets build or run that their manifest does not say.
    ///   - ledger: the ledger file, whose files are no change when it lies in the checkout.
    ///   - doing: what the hashes are for, said when the package is in no git checkout.
    /// - Returns: the repository, the graph and the hashes.
    /// - Throws: ``Problem`` outside a git checkout, or when SwiftPM cannot describe a package.
    package static func hashed(
        packagePath: String, configuration: String, ignore: [PathPattern] = [], uses: [String: [String]]? = nil,
        ledger: String? = nil, doing: String = "the test targets' hashes are read from git"
    ) throws -> Hashed {
        let package = URL(fileURLWithPath: packagePath).standardizedFileURL.path
        guard let repository = GitInfo.topLevel(in: package) else {
            throw Problem(description: "\(package) is not in a git checkout: \(doing)")
        }
        let (root, locals) = try describe(package)
        let graph = try graph(root: root, locals: locals, repository: repository, uses: uses)
        let written =
            [package + "/.build/", package + "/.swiftpm/"]
            + (ledger.map { [URL(fileURLWithPath: $0).standardizedFileURL.path] } ?? [])
        let unhashed = Hashed(repository: repository, graph: graph, hashes: [:], written: written)
        let toolchain = (try? Spawn.run("swift", ["--version"]).text) ?? ""
        // Every file no target holds (manifests, Package.resolved, fixtures, scripts) but those no
        // test reads: a change to one since a vouching run, even one the merge base cannot show
        // (a push to the base branch itself), makes every hash another.
        let outside = Self.outsideTargets(
            graph, repository: repository, ignore: ignore, isWritten: unhashed.isWritten)
        let manifests = ([root] + locals).map { manifestDigest(of: $0.path) }
        // Read whether git ignores it or not: a library's Package.resolved often is.
        let resolved =
            (try? Data(contentsOf: URL(fileURLWithPath: package).appending(path: "Package.resolved")))
            .map(TargetHashes.digest(of:)) ?? ""
        let hashes = TargetHashes.hashes(
            graph: graph, files: files(of: graph, repository: repository),
            shared: [resolved, toolchain, configuration, outside] + manifests)
        return Hashed(repository: repository, graph: graph, hashes: hashes, written: written)
    }

    /// The package graph, with what `select.uses` adds.
    /// - Throws: ``Problem`` when `uses` names a target the packages do not have: a misspelt name
    ///   would leave out tests that should run.
    package static func graph(
        root: PackageDescription, locals: [PackageDescription], repository: String, uses: [String: [String]]?
    ) throws -> PackageGraph {
        let graph = PackageGraph(root: root, locals: locals, repository: repository, uses: uses)
        let named = (uses ?? [:]).flatMap { [$0.key] + $0.value }
        if let unknown = named.sorted().first(where: { graph.targets[$0] == nil }) {
            throw Problem(
                description: "select.uses in .testledger.yml names \(unknown), which is no target of the package")
        }
        return graph
    }

    /// The root package's description and those of the local packages it depends on, at any depth.
    package static func describe(_ package: String) throws -> (PackageDescription, [PackageDescription]) {
        let root = try description(of: package)
        var locals: [PackageDescription] = []
        var seen: Set<String> = [root.path]
        var pending = root.localPackages
        while let next = pending.popLast() {
            let path = URL(fileURLWithPath: next).standardizedFileURL.path
            guard seen.insert(path).inserted else { continue }
            let local = try description(of: path)
            locals.append(local)
            pending += local.localPackages
        }
        return (root, locals)
    }

    private static func description(of package: String) throws -> PackageDescription {
        // A build folder of its own: the package's is locked while its tests build and run.
        let scratch = FileManager.default.temporaryDirectory.appending(path: "testledger-describe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let output = try Spawn.run(
            "swift",
            ["package", "--package-path", package, "--scratch-path", scratch.path, "describe", "--type", "json"])
        guard output.status == 0 else {
            throw Problem(
                description: "swift package describe failed in \(package) (exit \(output.status)): run "
                    + "`swift package describe --type json` there to see why")
        }
        do {
            return try PackageDescription(json: Data(output.standardOutput))
        } catch {
            throw Problem(description: "swift package describe printed no package description for \(package): \(error)")
        }
    }

    /// `origin/BASE`'s or `BASE`'s merge base with `commit`.
    package static func mergeBase(_ base: String, in repository: String, of commit: String = "HEAD") -> String? {
        for reference in ["origin/" + base, base] {
            guard let output = try? Spawn.run("git", ["-C", repository, "merge-base", commit, reference]),
                output.status == 0
            else { continue }
            let commit = output.text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !commit.isEmpty { return commit }
        }
        return nil
    }

    /// The files that differ from `commit` in the working tree, committed or not, and those git
    /// does not track and does not ignore.
    private static func changedFiles(since commit: String, in repository: String) -> [String] {
        let changed = gitList(["diff", "--name-only", "--no-renames", "-z", commit, "--"], in: repository)
        let untracked = gitList(["ls-files", "--others", "--exclude-standard", "-z"], in: repository)
        return Set(changed + untracked).sorted()
    }

    /// The paths a `git … -z` command lists in `repository`, each once as it printed it; none when
    /// git fails.
    package static func gitList(_ arguments: [String], in repository: String) -> [String] {
        guard let output = try? Spawn.run("git", ["-C", repository] + arguments), output.status == 0 else { return [] }
        return output.standardOutput.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Each target's files, each with the digest of its bytes: every file in its folder, through
    /// symbolic links (a file shared by two targets is a link in one of them).
    private static func files(of graph: PackageGraph, repository: String) -> [String: [String: String]] {
        var files: [String: [String: String]] = [:]
        for target in graph.targets.values {
            let folder =
                target.path.hasPrefix("/")
                ? URL(fileURLWithPath: target.path) : URL(fileURLWithPath: repository).appending(path: target.path)
            var digests: [String: String] = [:]
            var visited: Set<String> = []
            walk(folder, as: "", into: &digests, visited: &visited)
            files[target.name] = digests
        }
        return files
    }

    /// Adds the digest of each file under `folder`, by its path below the target's folder,
    /// following links to files and to folders (each real folder once).
    private static func walk(
        _ folder: URL, as prefix: String, into digests: inout [String: String], visited: inout Set<String>
    ) {
        guard visited.insert(folder.resolvingSymlinksInPath().path).inserted,
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return }
        for name in names.sorted() {
            let entry = folder.appending(path: name)
            var isDirectory: ObjCBool = false
            // `fileExists` follows links: a link to a folder is walked, a link to a file read.
            guard FileManager.default.fileExists(atPath: entry.path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                walk(entry, as: prefix + "/" + name, into: &digests, visited: &visited)
            } else if let bytes = try? Data(contentsOf: entry.resolvingSymlinksInPath()) {
                digests[prefix + "/" + name] = TargetHashes.digest(of: bytes)
            }
        }
    }

    /// One digest of every file of the repository that no target holds, git ignores not, and no
    /// `ignore` pattern matches: their paths and bytes.
    private static func outsideTargets(
        _ graph: PackageGraph, repository: String, ignore: [PathPattern], isWritten: (String) -> Bool
    ) -> String {
        let listed = gitList(["ls-files", "-z", "--cached", "--others", "--exclude-standard"], in: repository)
        var digest = ContentDigest()
        for file in Set(listed).sorted()
        where !isWritten(file) && graph.targets(holding: file).isEmpty && !ignore.contains(where: { $0.matches(file) })
        {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: repository).appending(path: file))) ?? Data()
            digest.update(Array("\(file)\u{0}\(TargetHashes.digest(of: bytes))\n".utf8))
        }
        return digest.hexString
    }

    /// The digest of a package's manifests (`Package.swift`, `Package@swift-*.swift`): a local
    /// package outside the repository has no other say in the hashes.
    private static func manifestDigest(of package: String) -> String {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: package)) ?? []).filter {
            $0 == "Package.swift" || ($0.hasPrefix("Package@swift-") && $0.hasSuffix(".swift"))
        }
        var digest = ContentDigest()
        for name in names.sorted() {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: package).appending(path: name))) ?? Data()
            digest.update(Array("\(name)\u{0}\(TargetHashes.digest(of: bytes))\n".utf8))
        }
        return digest.hexString
    }
}
