import Foundation
import LedgerCore
import MCP

/// How `testledger mcp --allow-run` runs `reproduce` and `verify_fix`: `testledger verify` as a
/// child process on the same ledger, with the project's test command, its output kept off the
/// protocol's stream.
struct TestVerifier: Sendable {
    /// This program, to run `verify` with.
    var executable: String
    /// The ledger options `verify` is given: the server's ledger has no file here.
    var storeArguments: [String]
    /// The test command: `swift test` and its options.
    var command: [String]

    /// The report of `testledger verify` (`--reproduce` when `reproducing`) of one test.
    /// - Throws: `MCPError.invalidParams` when `verify` refuses (an unknown test, no known rate),
    ///   with its message; `MCPError.internalError` when it cannot be run.
    func report(test: String, rate: Double?, targetRate: Double?, maxRuns: Int?, reproducing: Bool) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appending(path: "testledger-mcp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let reportFile = folder.appending(path: "report.json").path
        var arguments = ["verify", test, "--json-file", reportFile] + storeArguments
        if reproducing { arguments.append("--reproduce") }
        if let rate { arguments += ["--rate", String(rate)] }
        if let targetRate { arguments += ["--target-rate", String(targetRate)] }
        if let maxRuns { arguments += ["--max-runs", String(maxRuns)] }
        // Standard error joins the output, so that a refusal's message can be told.
        let output: Spawn.Output
        do {
            output = try Spawn.run(
                "/bin/sh", ["-c", "exec \"$0\" \"$@\" 2>&1", executable] + arguments + ["--"] + command)
        } catch {
            throw MCPError.internalError("cannot run testledger verify: \(error)")
        }
        if let report = FileManager.default.contents(atPath: reportFile), !report.isEmpty {
            return String(decoding: report, as: UTF8.self)
        }
        let said = output.text.split(separator: "\n").filter { $0.hasPrefix("Error:") || $0.hasPrefix("testledger:") }
        let message = said.suffix(3).joined(separator: " ")
        if output.status == 64 || output.status == 1 {
            throw MCPError.invalidParams(
                "verify refused: \(message.isEmpty ? String(output.text.suffix(500)) : message)")
        }
        throw MCPError.internalError("verify ended with status \(output.status): \(output.text.suffix(500))")
    }
}

extension LedgerTools {
    func verify(_ arguments: ToolArguments, reproducing: Bool) throws -> String {
        guard let verifier else { throw MCPError.invalidParams("\(arguments.tool) runs tests only with --allow-run") }
        return try verifier.report(
            test: try arguments.test().test, rate: try arguments.rate("rate"),
            targetRate: reproducing ? nil : try arguments.rate("target_rate"), maxRuns: try arguments.count("max_runs"),
            reproducing: reproducing)
    }
}
