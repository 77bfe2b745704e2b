import Foundation

/// Finds the shared sample reports beside the checkout, in `../shared/fixtures/formats`.
///
/// The samples are read where they are, never copied into the package; in a fresh clone the
/// folder is absent, and tests that need it skip with ``skipReason``.
public enum FixtureFiles {
    /// The samples folder, found from this file's path, or `nil` when it is absent.
    public static let formatsDirectory: URL? = {
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // LedgerTestSupport
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()
        let folder = packageRoot.appendingPathComponent("../shared/fixtures/formats")
            .standardizedFileURL
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory)
        return exists && isDirectory.boolValue ? folder : nil
    }()

    /// Whether the samples folder is there.
    public static var available: Bool { formatsDirectory != nil }

    /// Why tests that need the samples are skipped when they are.
    public static let skipReason =
        "the shared samples folder ../shared/fixtures/formats beside the package is absent"

    /// The sample file named `name`, or `nil` when it (or the folder) is absent.
    public static func url(_ name: String) -> URL? {
        guard let file = formatsDirectory?.appendingPathComponent(name),
            FileManager.default.fileExists(atPath: file.path)
        else { return nil }
        return file
    }

    /// The names of the samples that start with `prefix` and end with `suffix`, sorted;
    /// empty when the folder is absent.
    public static func names(prefix: String, suffix: String = "") -> [String] {
        guard let folder = formatsDirectory,
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [] }
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) }.sorted()
    }
}
