import LedgerCore
import Testing

/// One resolver for the CLI, the server's clients and the test library: given values, then
/// `TESTLEDGER_*`, then the CI's variables, then git.
@Suite struct RunMetadataResolveTests {
    let git = GitInfo(revision: "abc123", branch: "feature", repositoryName: "shop")

    @Test func gitFillsWhatNothingElseGives() {
        let metadata = RunMetadata.resolve(environment: [:], git: { git })
        #expect(metadata.project == "shop")
        #expect(metadata.revision == "abc123")
        #expect(metadata.branch == "feature")
        #expect(metadata.ci == nil)
    }

    @Test func theCIsVariablesWinOverGit() {
        let environment = [
            "GITHUB_ACTIONS": "true", "GITHUB_SHA": "def456", "GITHUB_REF_NAME": "main",
            "GITHUB_REPOSITORY": "acme/store", "GITHUB_RUN_ID": "77",
        ]
        var asked = false
        let metadata = RunMetadata.resolve(
            environment: environment,
            git: {
                asked = true
                return git
            })
        #expect(metadata.project == "store")
        #expect(metadata.revision == "def456")
        #expect(metadata.branch == "main")
        #expect(metadata.ci?.build == "77")
        #expect(!asked, "git is not asked when the CI says everything")
    }

    @Test func testledgerVariablesWinOverTheCIAndGivenValuesWinOverAll() {
        let environment = [
            "GITHUB_ACTIONS": "true", "GITHUB_SHA": "def456", "GITHUB_REF_NAME": "main",
            "TESTLEDGER_PROJECT": "Ledgered", "TESTLEDGER_REVISION": "from-record", "TESTLEDGER_BRANCH": "",
        ]
        let fromEnvironment = RunMetadata.resolve(environment: environment, git: { git })
        #expect(fromEnvironment.project == "Ledgered")
        #expect(fromEnvironment.revision == "from-record")
        #expect(fromEnvironment.branch == "main", "an empty variable says nothing")
        let given = RunMetadata.resolve(
            given: .init(project: "Flag", revision: "r1", build: "9"), configuredProject: "Configured",
            environment: environment, git: { git })
        #expect(given.project == "Flag")
        #expect(given.revision == "r1")
        #expect(given.ci?.build == "9")
    }

    @Test func theConfiguredProjectComesAfterTheVariableAndBeforeTheCI() {
        let environment = ["GITLAB_CI": "true", "CI_PROJECT_NAME": "from-ci"]
        #expect(
            RunMetadata.resolve(configuredProject: "Configured", environment: environment, git: { nil }).project
                == "Configured")
        #expect(RunMetadata.resolve(environment: environment, git: { nil }).project == "from-ci")
    }
}
