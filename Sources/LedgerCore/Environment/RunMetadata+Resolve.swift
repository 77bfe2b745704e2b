import Foundation

extension RunMetadata {
    /// What is known about a run from where it happens, the same for the CLI, the server's
    /// clients and the test library: each value as given, else from the environment, else from
    /// the CI's own variables, else from git.
    ///
    /// - Parameters:
    ///   - given: values named explicitly (the CLI's flags); they win.
    ///   - configuredProject: the project `.testledger.yml` names, when there is one.
    ///   - environment: `TESTLEDGER_PROJECT`, `TESTLEDGER_REVISION`, `TESTLEDGER_BRANCH` and the
    ///     CI's variables.
    ///   - git: reads git, called only when something is still missing.
    /// - Returns: the metadata; the project falls back to the working directory's name.
    public static func resolve(
        given: Given = Given(), configuredProject: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        git: () -> GitInfo? = { GitInfo.read() }
    ) -> RunMetadata {
        func variable(_ name: String) -> String? {
            environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        let ci = CIEnvironment.detect(environment)
        let project = given.project ?? variable("TESTLEDGER_PROJECT") ?? configuredProject ?? ci?.project
        let revision = given.revision ?? variable("TESTLEDGER_REVISION") ?? ci?.revision
        let branch = given.branch ?? variable("TESTLEDGER_BRANCH") ?? ci?.branch
        let gitInfo = project == nil || revision == nil || branch == nil ? git() : nil
        let ciInfo =
            ci.map { LedgerEvent.CI(provider: $0.provider, build: given.build ?? $0.build, job: $0.job, url: $0.url) }
            ?? given.build.map { LedgerEvent.CI(build: $0) }
        return RunMetadata(
            project: project ?? gitInfo?.repositoryName
                ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath).lastPathComponent,
            revision: revision ?? gitInfo?.revision, branch: branch ?? gitInfo?.branch, ci: ciInfo,
            host: ProcessInfo.processInfo.hostName, ciAttempt: ci?.attempt, configuration: given.configuration)
    }

    /// Values named explicitly, which win over everything the environment says.
    public struct Given: Hashable, Sendable {
        public var project: String?
        public var revision: String?
        public var branch: String?
        public var build: String?
        public var configuration: String?

        public init(
            project: String? = nil, revision: String? = nil, branch: String? = nil, build: String? = nil,
            configuration: String? = nil
        ) {
            self.project = project
            self.revision = revision
            self.branch = branch
            self.build = build
            self.configuration = configuration
        }
    }
}
