import ArgumentParser
import Foundation
import LedgerCore

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
    @Option(help: "The destination, OS or device, e.g. \"iPhone 15 / iOS 18\".")
    var configuration: String?

    /// Resolves the metadata: flags, then environment, then git.
    func metadata(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        config: ProjectConfiguration
    ) -> RunMetadata {
        let ci = CIEnvironment.detect(environment)
        let git =
            (revision == nil && ci?.revision == nil) || (branch == nil && ci?.branch == nil) || project == nil
            ? GitInfo.read() : nil
        let projectName =
            project ?? environment["TESTLEDGER_PROJECT"].flatMap { $0.isEmpty ? nil : $0 } ?? config.project
            ?? ci?.project ?? git?.repositoryName
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath).lastPathComponent
        let ciInfo =
            ci.map { LedgerEvent.CI(provider: $0.provider, build: build ?? $0.build, job: $0.job, url: $0.url) }
            ?? build.map { LedgerEvent.CI(build: $0) }
        return RunMetadata(
            project: projectName, revision: revision ?? ci?.revision ?? git?.revision,
            branch: branch ?? ci?.branch ?? git?.branch, ci: ciInfo, host: ProcessInfo.processInfo.hostName,
            ciAttempt: ci?.attempt, configuration: configuration)
    }
}
