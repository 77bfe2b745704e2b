import Foundation

/// What vouching compares: a hash of each test target, of its files and its dependencies', and
/// of what the whole build shares (`Package.resolved`, the toolchain, the configuration).
public enum TargetHashes {
    /// The hash of each test target of `graph`.
    ///
    /// - Parameters:
    ///   - graph: the package graph.
    ///   - files: each target's files by name: each file's path and the digest of its bytes.
    ///   - shared: what every hash covers besides, in order: `Package.resolved`'s text, the
    ///     toolchain's version, the configuration.
    /// - Returns: each test target's hash (32 hexadecimal digits), by name.
    public static func hashes(graph: PackageGraph, files: [String: [String: String]], shared: [String]) -> [String:
        String]
    {
        var own: [String: String] = [:]
        for name in graph.targets.keys {
            var digest = ContentDigest()
            for (path, content) in (files[name] ?? [:]).sorted(by: { $0.key < $1.key }) {
                digest.update(Array("\(path)\u{0}\(content)\n".utf8))
            }
            own[name] = digest.hexString
        }
        var hashes: [String: String] = [:]
        for target in graph.testTargets {
            var digest = ContentDigest()
            for part in shared { digest.update(Array("\(part)\u{0}".utf8)) }
            for name in graph.closure(of: target.name).sorted() {
                digest.update(Array("\(name)\u{0}\(own[name] ?? "")\n".utf8))
            }
            hashes[target.name] = digest.hexString
        }
        return hashes
    }

    /// The digest of a file's bytes, as ``hashes(graph:files:shared:)`` takes it.
    public static func digest(of bytes: Data) -> String {
        var digest = ContentDigest()
        digest.update(bytes)
        return digest.hexString
    }
}
