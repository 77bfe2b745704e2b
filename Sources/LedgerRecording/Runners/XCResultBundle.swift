import Foundation
import LedgerCore
import LedgerImport

/// A `.xcresult` bundle, read through Xcode's `xcresulttool` (`xcrun`, Xcode 16 or later): the
/// tests document, each test's activities, and the attachments' sizes (exported to a temporary
/// folder, or kept in `attachmentsFolder`).
package struct XCResultBundle {
    package let path: String
    /// Where to keep the attachments' payloads; `nil` measures them and throws them away.
    package var attachmentsFolder: String?

    package init(path: String, attachmentsFolder: String? = nil) {
        self.path = path
        self.attachmentsFolder = attachmentsFolder
    }

    /// Whether `path` is a result bundle: a folder named `….xcresult`.
    package static func isBundle(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return URL(fileURLWithPath: path).pathExtension == "xcresult"
            && FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The tests document and the details the importer reads from the bundle.
    /// - Throws: ``LedgerInputError`` naming the bundle when `xcrun` or `xcresulttool` is missing or
    ///   fails.
    package func read() throws -> (tests: Data, details: XCResultBundleDetails) {
        let tests = try tool(["get", "test-results", "tests", "--path", path, "--format", "json"])
        let identifiers = try XCResultImporter.testIdentifiers(in: .data(tests), sourceName: path)
        // Each test's activities are one xcresulttool process: a few run side by side.
        nonisolated(unsafe) var activities: [String: Data] = [:]
        nonisolated(unsafe) var failure: Error?
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: identifiers.count) { index in
            let identifier = identifiers[index]
            do {
                let data = try tool([
                    "get", "test-results", "activities", "--test-id", identifier, "--path", path, "--format", "json",
                ])
                lock.withLock { activities[identifier] = data }
            } catch {
                lock.withLock { failure = failure ?? error }
            }
        }
        if let failure { throw failure }
        return (tests, XCResultBundleDetails(activities: activities, attachments: try exportedAttachments()))
    }

    /// The attachments as `export attachments` writes them; none when it cannot (an Xcode
    /// without it), since they are a detail.
    private func exportedAttachments() throws -> [String: XCResultBundleDetails.ExportedAttachment] {
        let keep = attachmentsFolder != nil
        let folder =
            attachmentsFolder.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appending(path: "testledger-attachments-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(at: folder) } }
        do {
            _ = try tool(["export", "attachments", "--path", path, "--output-path", folder.path])
        } catch {
            FileHandle.standardError.write(Data("warning: \(path): attachments not measured (\(error))\n".utf8))
            return [:]
        }
        guard let manifest = try? Data(contentsOf: folder.appending(path: "manifest.json")) else { return [:] }
        return (try? XCResultBundleDetails.exportedAttachments(manifest: manifest, in: folder, keep: keep)) ?? [:]
    }

    /// Runs `xcrun xcresulttool ARGUMENTS`; its standard output.
    private func tool(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xcrun", "xcresulttool"] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Both pipes drain at once, so that neither fills while the other is read.
        nonisolated(unsafe) var data = Data()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            data = output.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        done.wait()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            // `env` exits 127 when it cannot find the command.
            if process.terminationStatus == 127 { throw Self.needsXcode(path) }
            throw LedgerInputError(
                source: path,
                problem: "xcresulttool \(arguments.prefix(3).joined(separator: " ")) failed: "
                    + message.trimmingCharacters(in: .whitespacesAndNewlines).prefix(300),
                fix: "check the bundle with `xcrun xcresulttool get test-results summary --path \(path)`")
        }
        return data
    }

    /// The error where Xcode's tools are missing (Linux, or a Mac without Xcode).
    package static func needsXcode(_ path: String) -> LedgerInputError {
        LedgerInputError(
            source: path,
            problem: "reading a .xcresult bundle needs Xcode's xcresulttool (xcrun), which this machine does not have",
            fix: "on the Mac that ran the tests, write `xcrun xcresulttool get test-results tests --path \(path) "
                + "--format json > results.json` and ingest results.json here")
    }
}
