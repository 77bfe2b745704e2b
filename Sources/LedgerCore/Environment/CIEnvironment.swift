/// What a CI service says about the job through its own environment variables.
public struct CIEnvironment: Hashable, Sendable {
    /// The service: `github-actions`, `gitlab`, `buildkite`, `circleci`, `bitrise`, `xcode-cloud` or
    /// `jenkins`.
    public var provider: String
    /// The repository, pipeline or product name the service gives; `nil` when it gives none (Jenkins).
    public var project: String?
    /// The commit being built.
    public var revision: String?
    /// The branch being built; for a pull or merge request, its source branch where the service says.
    public var branch: String?
    /// The service's id or number of the build, pipeline or workflow run.
    public var build: String?
    /// The job, step or workflow within the build.
    public var job: String?
    /// A link to the build or job on the service.
    public var url: String?
    /// Which attempt of the job this is, 1 for the first; `nil` where the service does not say
    /// (only GitHub Actions and Buildkite do).
    public var attempt: Int?

    /// Reads the variables of GitHub Actions, GitLab CI, Buildkite, CircleCI, Jenkins, Bitrise
    /// or Xcode Cloud; `nil` when none of them is set.
    ///
    /// Empty variables count as unset. When several services' markers are set, the first in the
    /// order above wins, except that Jenkins is tried last.
    ///
    /// - Parameter env: the environment variables, such as `ProcessInfo.processInfo.environment`.
    /// - Returns: what the service says, or `nil` outside a known CI service.
    public static func detect(_ env: [String: String]) -> CIEnvironment? {
        func value(_ names: String...) -> String? {
            names.lazy.compactMap { env[$0] }.first { !$0.isEmpty }
        }
        if env["GITHUB_ACTIONS"] == "true" {
            var url: String?
            if let server = value("GITHUB_SERVER_URL"), let repository = value("GITHUB_REPOSITORY"),
                let run = value("GITHUB_RUN_ID")
            {
                url = "\(server)/\(repository)/actions/runs/\(run)"
            }
            return CIEnvironment(
                provider: "github-actions",
                project: value("GITHUB_REPOSITORY").map { $0.split(separator: "/").last.map(String.init) ?? $0 },
                revision: value("GITHUB_SHA"), branch: value("GITHUB_HEAD_REF", "GITHUB_REF_NAME"),
                build: value("GITHUB_RUN_ID"), job: value("GITHUB_JOB"), url: url,
                attempt: value("GITHUB_RUN_ATTEMPT").flatMap { Int($0) })
        }
        if env["GITLAB_CI"] != nil {
            return CIEnvironment(
                provider: "gitlab", project: value("CI_PROJECT_NAME"),
                revision: value("CI_COMMIT_SHA"),
                branch: value("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME", "CI_COMMIT_REF_NAME"),
                build: value("CI_PIPELINE_ID"), job: value("CI_JOB_NAME"), url: value("CI_JOB_URL"))
        }
        if env["BUILDKITE"] == "true" {
            return CIEnvironment(
                provider: "buildkite", project: value("BUILDKITE_PIPELINE_SLUG"),
                revision: value("BUILDKITE_COMMIT"), branch: value("BUILDKITE_BRANCH"),
                build: value("BUILDKITE_BUILD_NUMBER"), job: value("BUILDKITE_LABEL", "BUILDKITE_STEP_KEY"),
                url: value("BUILDKITE_BUILD_URL"),
                attempt: value("BUILDKITE_RETRY_COUNT").flatMap { Int($0) }.map { $0 + 1 })
        }
        if env["CIRCLECI"] == "true" {
            return CIEnvironment(
                provider: "circleci", project: value("CIRCLE_PROJECT_REPONAME"),
                revision: value("CIRCLE_SHA1"), branch: value("CIRCLE_BRANCH"),
                build: value("CIRCLE_BUILD_NUM"), job: value("CIRCLE_JOB"),
                url: value("CIRCLE_BUILD_URL"))
        }
        if env["BITRISE_IO"] == "true" {
            return CIEnvironment(
                provider: "bitrise", project: value("BITRISE_APP_TITLE"),
                revision: value("BITRISE_GIT_COMMIT", "GIT_CLONE_COMMIT_HASH"),
                branch: value("BITRISE_GIT_BRANCH"), build: value("BITRISE_BUILD_NUMBER"),
                job: value("BITRISE_TRIGGERED_WORKFLOW_ID"), url: value("BITRISE_BUILD_URL"))
        }
        if env["CI_XCODEBUILD_ACTION"] != nil || (env["CI_BUILD_ID"] != nil && env["CI_WORKFLOW"] != nil) {
            return CIEnvironment(
                provider: "xcode-cloud", project: value("CI_PRODUCT"), revision: value("CI_COMMIT"),
                branch: value("CI_BRANCH", "CI_PULL_REQUEST_SOURCE_BRANCH"),
                build: value("CI_BUILD_NUMBER", "CI_BUILD_ID"), job: value("CI_WORKFLOW"),
                url: value("CI_BUILD_URL"))
        }
        if env["JENKINS_URL"] != nil {
            return CIEnvironment(
                provider: "jenkins", project: nil, revision: value("GIT_COMMIT"),
                branch: value("BRANCH_NAME", "GIT_BRANCH"), build: value("BUILD_NUMBER"),
                job: value("JOB_NAME"), url: value("BUILD_URL"))
        }
        return nil
    }
}
