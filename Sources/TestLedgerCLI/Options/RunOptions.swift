import ArgumentParser
import Foundation
import LedgerCore
import LedgerRecording

/// Run metadata flags; what they leave out comes from the CI's variables, then from git.
struct RunOptions: ParsableArguments {
    @Option(
        help: "The project (default: $TESTLEDGER_PROJECT, .testledger.yml, the CI's repository, the git folder's name)."
    )
    var project: String?
    @Option(help: "The revision tested (default: the CI's, else git HEAD).")
    var revision: String?
    @Option(help: "The branch (default: the CI's, else git's current branch).")
    var branch: String?
    @Option(help: "The CI build number or id.")
    var build: String?
    @Option(help: "The destination, OS or device, e.g. \"iPhone 15 / iOS 18\" (default: $TESTLEDGER_CONFIGURATION).")
    var configuration: String?

    /// Resolves the metadata: flags, then environment, then git.
    /// - Parameters:
    ///   - environment: the variables read.
    ///   - config: `.testledger.yml`, whose project wins over the checkout's.
    ///   - directory: the checkout tested (a command's `--package-path`): its `.testledger.yml`'s
    ///     project when `config` names none, its repository's name, its git.
    /// - Returns: the run's metadata.
    func metadata(
        environment: LedgerEnvironment = LedgerEnvironment(), config: ProjectConfiguration,
        directory: String = FileManager.default.currentDirectoryPath
    ) -> RunMetadata {
        let elsewhere =
            URL(fileURLWithPath: directory).standardizedFileURL.path
            != URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        return RunMetadata.resolve(
            given: .init(
                project: project, revision: revision, branch: branch, build: build, configuration: configuration),
            configuredProject: config.project
                ?? (elsewhere ? (try? ProjectConfiguration.load(from: directory))?.project : nil),
            environment: environment, directory: directory)
    }
}
