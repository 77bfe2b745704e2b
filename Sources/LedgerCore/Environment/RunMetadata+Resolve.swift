import Foundation

extension RunMetadata {
    /// What is known about a run from where it happens, the same for the CLI, the server's
    /// clients and the test library: each value as given, else from the environment, else from
    /// the CI's own variables, else from git.
    ///
    /// Git is asked once, and only for a revision or a branch that nothing else gives: a missing
    /// project is the repository's folder name, found without starting git.
    ///
    /// - Parameters:
    ///   - given: values named explicitly (the CLI's flags); they win.
    ///   - configuredProject: the project `.testledger.yml` names, when there is one.
    ///   - environment: `TESTLEDGER_PROJECT`, `TESTLEDGER_REVISION`, `TESTLEDGER_BRANCH`,
    ///     `TESTLEDGER_CONFIGURATION` and the CI's variables.
    ///   - directory: the checkout tested (a `--package-path`), the working directory unless given.
    ///   - git: reads git, called only when the revision or the branch is still missing.
    ///   - host: the machine the run happens on.
    /// - Returns: the metadata; the project falls back to the repository's folder name, then to
    ///   `directory`'s.
    public static func resolve(
        given: Given = Given(), configuredProject: String? = nil, environment: LedgerEnvironment = LedgerEnvironment(),
        directory: String = FileManager.default.currentDirectoryPath, git: ((String) -> GitInfo?)? = nil,
        host: String? = ProcessInfo.processInfo.hostName
    ) -> RunMetadata {
        let ci = CIEnvironment.detect(environment.variables)
        let project = given.project ?? environment.project ?? configuredProject ?? ci?.project
        let revision = given.revision ?? environment.revision ?? ci?.revision
        let branch = given.branch ?? environment.branch ?? ci?.branch
        let gitInfo = revision == nil || branch == nil ? (git ?? { GitInfo.read(in: $0) })(directory) : nil
        let ciInfo =
            ci.map { LedgerEvent.CI(provider: $0.provider, build: given.build ?? $0.build, job: $0.job, url: $0.url) }
            ?? given.build.map { LedgerEvent.CI(build: $0) }
        return RunMetadata(
            project: project ?? gitInfo?.repositoryName ?? GitInfo.repositoryName(in: directory)
                ?? URL(fileURLWithPath: directory).lastPathComponent,
            revision: revision ?? gitInfo?.revision, branch: branch ?? gitInfo?.branch, ci: ciInfo,
            host: host, ciAttempt: ci?.attempt, configuration: given.configuration ?? environment.configuration)
    }

    /// Values named explicitly, which win over everything the environment says.
    public struct Given: Hashable, Sendable {
        /// The project the run belongs to; `nil` to look it up.
        public var project: String?
        /// The revision under test, such as a git commit; `nil` to look it up.
        public var revision: String?
        /// The branch under test; `nil` to look it up.
        public var branch: String?
        /// The CI build number or id; `nil` for the CI's own, when there is a CI.
        public var build: String?
        /// The destination, OS or device, such as `iPhone 15 / iOS 18`; `nil` for none: nothing else names one.
        public var configuration: String?

        /// Creates the given values; `nil` leaves a value to the environment.
        /// - Parameters:
        ///   - project: the project the run belongs to.
        ///   - revision: the revision under test.
        ///   - branch: the branch under test.
        ///   - build: the CI build number or id.
        ///   - configuration: the destination, OS or device.
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
