import Foundation

/// The targets of a package and of the local packages it depends on, as SwiftPM describes them
/// (`swift package describe --type json`): each target's folder and the targets it depends on.
///
/// Paths are from the repository's root; a package outside the repository keeps its absolute
/// path, which no changed file of the repository matches.
public struct PackageGraph: Sendable, Equatable {
    /// One target of one of the packages.
    public struct Target: Sendable, Equatable {
        /// The target's name, unique in a package graph.
        public var name: String
        /// Its module's name: the first part of its tests' ids (`CartTests.CartTests/testTotal`).
        public var module: String
        /// Its folder.
        public var path: String
        /// Whether it is a test target.
        public var isTest: Bool
        /// The targets it depends on directly, by name: its package's, and those of the products
        /// of local packages it uses. A test target also depends on every executable target of its
        /// package: `swift test` builds them, and tests run them (as a process) without naming them.
        /// When the project says what its tests use (`select.uses`), only those naming them do.
        public var dependencies: [String]
    }

    /// The targets by name.
    public private(set) var targets: [String: Target] = [:]
    /// The folders of the packages, root first: their `Package.swift` and `Package.resolved`.
    public private(set) var packages: [String] = []

    /// - Parameters:
    ///   - root: the root package's description.
    ///   - locals: the descriptions of the local packages it depends on, at any depth.
    ///   - repository: the repository's root, as an absolute path.
    ///   - uses: what the root package's test targets build or run that their manifest does not say
    ///     (`select.uses`): a package the tests build that depends on this one, an executable.
    ///     `nil` when the project does not say: every test target then depends on every executable.
    public init(
        root: PackageDescription, locals: [PackageDescription] = [], repository: String,
        uses: [String: [String]]? = nil
    ) {
        let all = [root] + locals
        var productTargets: [String: [String]] = [:]
        for package in locals {
            for product in package.products { productTargets[product.name, default: []] += product.targets }
        }
        for package in all {
            let folder = Self.relative(package.path, to: repository)
            packages.append(folder)
            let isRoot = package == root
            let executables = package.targets.filter { $0.type == "executable" }.map(\.name)
            for target in package.targets {
                let isTest = target.type == "test"
                // `swift test` runs the root package's tests only; a local package's target never
                // takes the place of a root one of the same name.
                guard isRoot || (!isTest && targets[target.name] == nil) else { continue }
                let local = target.productDependencies.flatMap { productTargets[$0] ?? [] }
                let said = isRoot ? uses.map { $0[target.name] ?? [] } : nil
                targets[target.name] = Target(
                    name: target.name, module: target.c99name, path: Self.joined(folder, target.path), isTest: isTest,
                    dependencies: target.targetDependencies + local + (isTest ? said ?? executables : []))
            }
        }
    }

    /// The root package's test targets, by name: those `swift test` runs.
    public var testTargets: [Target] {
        targets.values.filter(\.isTest).sorted { $0.name < $1.name }
    }

    /// `target` and every target it depends on, through any path, by name.
    public func closure(of target: String) -> Set<String> {
        var seen: Set<String> = []
        var stack = [target]
        while let next = stack.popLast() {
            guard seen.insert(next).inserted, let found = targets[next] else { continue }
            stack += found.dependencies
        }
        return seen.filter { targets[$0] != nil }
    }

    /// The targets whose folder holds `file` (a path from the repository's root).
    public func targets(holding file: String) -> [String] {
        targets.values.filter { Self.isInside(file, $0.path) }.map(\.name).sorted()
    }

    /// The package folder whose manifest or resolved file `file` is, when it is one: `Package.swift`,
    /// a version-specific `Package@swift-6.0.swift`, or `Package.resolved`.
    public func manifest(_ file: String) -> String? {
        let name = (file as NSString).lastPathComponent
        let folder = (file as NSString).deletingLastPathComponent
        let isManifest =
            name == "Package.swift" || name == "Package.resolved"
            || (name.hasPrefix("Package@swift-") && name.hasSuffix(".swift"))
        return isManifest && packages.contains(folder) ? folder : nil
    }

    static func isInside(_ file: String, _ folder: String) -> Bool {
        folder.isEmpty || file == folder || file.hasPrefix(folder + "/")
    }

    private static func joined(_ folder: String, _ path: String) -> String {
        folder.isEmpty ? path : folder + "/" + path
    }

    private static func relative(_ path: String, to repository: String) -> String {
        let path = URL(fileURLWithPath: path).standardizedFileURL.path
        let root = URL(fileURLWithPath: repository).standardizedFileURL.path
        if path == root { return "" }
        return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }
}

/// What `swift package describe --type json` says of one package.
public struct PackageDescription: Sendable, Equatable, Decodable {
    /// One target.
    public struct Target: Sendable, Equatable, Decodable {
        public var name: String
        public var c99name: String
        /// Its folder, from the package's.
        public var path: String
        /// `library`, `executable`, `test`, `plugin`, `macro`…
        public var type: String
        public var targetDependencies: [String]
        public var productDependencies: [String]

        private enum CodingKeys: String, CodingKey {
            case name, c99name, path, type
            case targetDependencies = "target_dependencies"
            case productDependencies = "product_dependencies"
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decode(String.self, forKey: .name)
            c99name = try container.decodeIfPresent(String.self, forKey: .c99name) ?? name
            path = try container.decode(String.self, forKey: .path)
            type = try container.decode(String.self, forKey: .type)
            targetDependencies = try container.decodeIfPresent([String].self, forKey: .targetDependencies) ?? []
            productDependencies = try container.decodeIfPresent([String].self, forKey: .productDependencies) ?? []
        }
    }

    /// One product: the targets it is made of.
    public struct Product: Sendable, Equatable, Decodable {
        public var name: String
        public var targets: [String]
    }

    /// One dependency; `path` for a local package.
    public struct Dependency: Sendable, Equatable, Decodable {
        public var identity: String
        public var type: String?
        public var path: String?
    }

    public var name: String
    /// The package's folder, absolute.
    public var path: String
    public var targets: [Target]
    public var products: [Product]
    public var dependencies: [Dependency]

    private enum CodingKeys: String, CodingKey { case name, path, targets, products, dependencies }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        path = try container.decode(String.self, forKey: .path)
        targets = try container.decodeIfPresent([Target].self, forKey: .targets) ?? []
        products = try container.decodeIfPresent([Product].self, forKey: .products) ?? []
        dependencies = try container.decodeIfPresent([Dependency].self, forKey: .dependencies) ?? []
    }

    /// The folders of the local packages it depends on.
    public var localPackages: [String] {
        dependencies.filter { $0.type == "fileSystem" }.compactMap(\.path)
    }

    /// Reads the JSON `swift package describe --type json` prints.
    /// - Throws: `DecodingError` when the text is not such a description.
    public init(json: Data) throws {
        self = try JSONDecoder().decode(Self.self, from: json)
    }
}
