import Foundation

/// The PostgreSQL server the PostgreSQL tests use: `TESTLEDGER_TEST_DATABASE_URL`, which `.ci/run`
/// sets to a throwaway cluster it starts (`Scripts/postgres-cluster.sh`). Each test works in a
/// schema of its own.
public enum TestPostgres {
    /// The server's URL; `nil` when the variable is not set, and the PostgreSQL tests are skipped.
    public static let url: String? = ProcessInfo.processInfo.environment["TESTLEDGER_TEST_DATABASE_URL"]

    /// Whether PostgreSQL tests run.
    public static var available: Bool { url != nil }

    /// A URL naming a new schema of its own on the server (created when first opened).
    public static func freshURL() -> String? {
        guard let url else { return nil }
        let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        return url + (url.contains("?") ? "&" : "?") + "search_path=\(schema)"
    }

    /// Drops the schema a ``freshURL()`` named, with `psql`.
    public static func drop(_ schemaURL: String) {
        guard let base = url, let schema = schemaURL.components(separatedBy: "search_path=").last else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", "--quiet", base, "--command", "DROP SCHEMA IF EXISTS \(schema) CASCADE"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try? process.run()
        process.waitUntilExit()
    }
}
