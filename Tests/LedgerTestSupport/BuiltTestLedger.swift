import Foundation

/// The package the tests belong to, and the `testledger` binary its build made.
public enum BuiltTestLedger {
    /// The package's root folder.
    public static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The `testledger` binary built beside the test bundle (`swift build --build-tests` builds it).
    public static let binary: URL = {
        var folder = Bundle.main.bundleURL
        for _ in 0..<4 {
            let candidate = folder.appending(path: "testledger")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return packageRoot.appending(path: ".build/debug/testledger")
    }()
}
