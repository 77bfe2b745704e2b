import Foundation
import LedgerCore
import LedgerRecording
import Yams

extension ProjectConfiguration {
    /// Reads `.testledger.yml` from the working directory; an absent file is the defaults.
    /// - Throws: ``LedgerInputError`` naming the file when it is not valid.
    static func load(from directory: String = FileManager.default.currentDirectoryPath) throws
        -> ProjectConfiguration
    {
        let path = URL(fileURLWithPath: directory).appending(path: ".testledger.yml").path
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return ProjectConfiguration() }
        do {
            return try YAMLDecoder().decode(ProjectConfiguration.self, from: text)
        } catch {
            throw LedgerInputError(
                source: path, problem: "not a valid configuration: \(error)",
                fix: "see docs/configuration.md")
        }
    }
}
