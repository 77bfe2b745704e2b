/// Where a file a test run named sits in the repository, also when the run was recorded on
/// another machine (`/Users/runner/work/App/App/Tests/…`).
public struct RepositoryPaths: Hashable, Sendable {
    private let root: String?
    private let topLevel: Set<String>

    /// - Parameters:
    ///   - root: the checkout's absolute path; files under it are taken relative to it.
    ///   - topLevel: the names at the top of the repository, to find where a path from another
    ///     machine enters it.
    public init(root: String?, topLevel: some Sequence<String>) {
        self.root = root.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        self.topLevel = Set(topLevel)
    }

    /// A file's path from the repository's root; `nil` when it cannot be placed.
    ///
    /// A relative path is taken as it is. An absolute one is taken relative to the checkout when
    /// it is under it; otherwise (a path from another machine) from its last directory named like
    /// one at the top of the repository.
    public func path(_ file: String) -> String? {
        guard file.hasPrefix("/") else {
            return file.hasPrefix("./") ? String(file.dropFirst(2)) : file
        }
        if let root, file.hasPrefix(root + "/") { return String(file.dropFirst(root.count + 1)) }
        let components = file.split(separator: "/")
        guard let entry = components.dropLast().lastIndex(where: { topLevel.contains(String($0)) }) else {
            return nil
        }
        return components[entry...].joined(separator: "/")
    }
}
