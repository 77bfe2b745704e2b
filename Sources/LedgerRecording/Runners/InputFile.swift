import Foundation
import LedgerCore
import LedgerImport

/// An input named on the command line, on disk: standard input is first copied to a temporary
/// file (in chunks) so that it can be identified and read as a stream like any file.
package struct InputFile {
    /// The name errors use: the path as given, or `-`.
    package var name: String
    package var url: URL
    package var digest: ContentDigest
    package var modified: Double
    private var temporary: Bool

    package static func open(_ path: String) throws -> InputFile {
        if path == "-" { return try spoolStandardInput() }
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw LedgerInputError(source: path, problem: "no such file", fix: "check the path")
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? Date().timeIntervalSince1970
        return InputFile(
            name: path, url: url, digest: try ContentDigest.of(file: url), modified: modified, temporary: false)
    }

    private static func spoolStandardInput() throws -> InputFile {
        let url = FileManager.default.temporaryDirectory.appending(path: "testledger-stdin-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let output = try FileHandle(forWritingTo: url)
        defer { try? output.close() }
        var digest = ContentDigest()
        while let chunk = try FileHandle.standardInput.read(upToCount: 1 << 20), !chunk.isEmpty {
            digest.update(chunk)
            try output.write(contentsOf: chunk)
        }
        return InputFile(name: "-", url: url, digest: digest, modified: Date().timeIntervalSince1970, temporary: true)
    }

    /// The file ready to import: its format (detected unless given) and its import context,
    /// whose run id is the one given or derived from the content and the project.
    /// - Throws: ``LedgerInputError`` for a file whose format is not detected.
    package func prepared(format: InputFormat?, metadata: RunMetadata, runID: String? = nil, repeats: Repeats? = nil)
        throws -> PreparedImport
    {
        try PreparedImport(
            file: url, sourceName: name, format: format, metadata: metadata, runID: runID, digest: digest,
            fallbackStart: modified, repeats: repeats)
    }

    /// Removes the temporary copy of standard input.
    package func close() {
        if temporary { try? FileManager.default.removeItem(at: url) }
    }
}
