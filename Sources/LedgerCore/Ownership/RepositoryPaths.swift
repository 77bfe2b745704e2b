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

    /// A file's path from the repository's root, only where the checkout has that file: under the
    /// root, else from the first directory named like one at the top of the repository whose
    /// remainder is there (`…/Packages/Core/Tests/A.swift` is `Packages/Core/Tests/A.swift`, not
    /// `Tests/A.swift`); `nil` for a runtime's or a library's file.
    ///
    /// - Parameters:
    ///   - file: the path a test run named, relative or absolute.
    ///   - exists: whether the checkout has a file at a path from its root.
    /// - Returns: the file's path from the repository's root; `nil` when the checkout has no such file.
    public func existing(_ file: String, exists: (String) -> Bool) -> String? {
        guard file.hasPrefix("/") else {
            let relative = file.hasPrefix("./") ? String(file.dropFirst(2)) : file
            return exists(relative) ? relative : nil
        }
        if let root, file.hasPrefix(root + "/") {
            let relative = String(file.dropFirst(root.count + 1))
            return exists(relative) ? relative : nil
        }
        let components = file.split(separator: "/")
        for entry in components.indices.dropLast() where topLevel.contains(String(components[entry])) {
            let relative = components[entry...].joined(separator: "/")
            if exists(relative) { return relative }
        }
        return nil
    }
}
