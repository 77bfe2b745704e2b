import Foundation

/// What a result bundle holds beyond `get test-results tests`: each test's activities, and the
/// attachments `xcresulttool export attachments` wrote.
public struct XCResultBundleDetails: Sendable {
    /// An attachment as exported: its size, and where it was kept.
    public struct ExportedAttachment: Sendable, Equatable {
        public var size: Int?
        /// Where the payload stays; `nil` when it was not kept.
        public var path: String?

        public init(size: Int?, path: String?) {
            self.size = size
            self.path = path
        }
    }

    /// The JSON of `get test-results activities --test-id ID`, by test id.
    public var activities: [String: Data]
    /// Exported attachments, by the name the activities give them (the manifest's
    /// `suggestedHumanReadableName`) and by their UUID.
    public var attachments: [String: ExportedAttachment]

    public init(activities: [String: Data] = [:], attachments: [String: ExportedAttachment] = [:]) {
        self.activities = activities
        self.attachments = attachments
    }

    /// The attachments listed in `export attachments`' `manifest.json`, with their exported files'
    /// sizes; `path` keeps each file's path when `keep` is true.
    ///
    /// - Parameters:
    ///   - manifest: the manifest's JSON.
    ///   - folder: the folder it was exported to.
    ///   - keep: whether the exported files stay.
    /// - Returns: each exported attachment by its exported file's name, by the UUID in that name,
    ///   and by its suggested name.
    /// - Throws: `DecodingError` for a manifest that is not one.
    public static func exportedAttachments(manifest: Data, in folder: URL, keep: Bool) throws -> [String:
        ExportedAttachment]
    {
        struct Test: Decodable {
            var attachments: [Entry]?
        }
        struct Entry: Decodable {
            var exportedFileName: String
            var suggestedHumanReadableName: String?
        }
        var found: [String: ExportedAttachment] = [:]
        for test in try JSONDecoder().decode([Test].self, from: manifest) {
            for entry in test.attachments ?? [] {
                let file = folder.appending(path: entry.exportedFileName)
                let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue
                let exported = ExportedAttachment(size: size, path: keep ? file.path : nil)
                found[entry.exportedFileName] = exported
                // The UUID before the extension names the attachment in the activities too.
                found[String(entry.exportedFileName.prefix { $0 != "." })] = exported
                if let name = entry.suggestedHumanReadableName { found[name] = exported }
            }
        }
        return found
    }
}
