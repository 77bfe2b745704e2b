import LedgerCore
import Testing

/// One resolver for the CLI, the server's clients and the test library: given values, then
/// `TESTLEDGER_*`, then the CI's variables, then git.
@Suite struct RunMetadataResolveTests {
    let git = GitInfo(revision: "abc123", branch: "feature", repositoryName: "shop")

    @Test func theConfigurationComesFromTheEnvironmentUnlessGiven() {
        let environment: LedgerEnvironment = ["TESTLEDGER_CONFIGURATION": "iPhone 16 / iOS 18"]
        #expect(RunMetadata.resolve(environment: environment, git: { _ in git }).configuration == "iPhone 16 / iOS 18")
        let given = RunMetadata.resolve(
            given: .init(configuration: "macOS 15"), environment: environment, git: { _ in git })
        #expect(given.configuration == "macOS 15")
        #expect(RunMetadata.resolve(environment: [:], git: { _ in git }).configuration == nil)
    }

    @Test func gitFillsWhatNothingElseGives() {
        let metadata = RunMetadata.resolve(environment: [:], git: { _ in git })
        #expect(metadata.project == "shop")
        #expect(metadata.revision == "abc123")
        #expect(metadata.branch == "feature")
        #expect(metadata.ci == nil)
    }

    @Test func theCIsVariablesWinOverGit() {
        let environment: LedgerEnvironment = [
            "GITHUB_ACTIONS": "true", "GITHUB_SHA": "def456", "GITHUB_REF_NAME": "main",
            "GITHUB_REPOSITORY": "acme/store", "GITHUB_RUN_ID": "77",
        ]
        var asked = false
        let metadata = RunMetadata.resolve(
            environment: environment,
            git: { _ in
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
        let environment: LedgerEnvironment = [
            "GITHUB_ACTIONS": "true", "GITHUB_SHA": "def456", "GITHUB_REF_NAME": "main",
            "TESTLEDGER_PROJECT": "Ledgered", "TESTLEDGER_REVISION": "from-record", "TESTLEDGER_BRANCH": "",
        ]
        let fromEnvironment = RunMetadata.resolve(environment: environment, git: { _ in git })
        #expect(fromEnvironment.project == "Ledgered")
        #expect(fromEnvironment.revision == "from-record")
        #expect(fromEnvironment.branch == "main", "an empty variable says nothing")
        let given = RunMetadata.resolve(
            given: .init(project: "Flag", revision: "r1", build: "9"), configuredProject: "Configured",
            environment: environment, git: { _ in git })
        #expect(given.project == "Flag")
        #expect(given.revision == "r1")
        #expect(given.ci?.build == "9")
    }

    @Test func theConfiguredProjectComesAfterTheVariableAndBeforeTheCI() {
        let environment: LedgerEnvironment = ["GITLAB_CI": "true", "CI_PROJECT_NAME": "from-ci"]
        #expect(
            RunMetadata.resolve(configuredProject: "Configured", environment: environment, git: { _ in nil }).project
                == "Configured")
        #expect(RunMetadata.resolve(environment: environment, git: { _ in nil }).project == "from-ci")
    }
}

@Suite struct LedgerEnvironmentTests {
    @Test func theRunIsAUUIDLowercasedOrNothing() {
        let given: LedgerEnvironment = ["TESTLEDGER_RUN": "6F1C1F3E-6A3B-4C89-9A47-2F3F5F5E8A10"]
        #expect(given.run == "6f1c1f3e-6a3b-4c89-9a47-2f3f5f5e8a10")
        #expect(LedgerEnvironment(["TESTLEDGER_RUN": "nightly"]).run == nil, "not a UUID: a run of its own")
        #expect(LedgerEnvironment([:]).run == nil)
    }

    @Test func emptyVariablesCountAsUnsetAndPathsHaveDefaults() {
        let empty: LedgerEnvironment = ["TESTLEDGER_DB": "", "TESTLEDGER_TOKEN": "", "TESTLEDGER_SPOOL": ""]
        #expect(empty.databasePath == LedgerEnvironment.defaultDatabasePath)
        #expect(empty.token == nil)
        #expect(empty.spoolPath == ".testledger/spool")
        let set: LedgerEnvironment = ["TESTLEDGER_DB": "/tmp/l.sqlite", "TESTLEDGER_URL": "http://127.0.0.1:8080"]
        #expect(set.databasePath == "/tmp/l.sqlite")
        #expect(set.serverURL?.port == 8080)
    }

    @Test func theRecordedTestsGetWhatTheyNeedToJoinTheRun() {
        let metadata = RunMetadata(project: "Shop", revision: "abc", branch: nil)
        let variables = LedgerEnvironment.forRecordedTests(
            run: "r", databasePath: "relative/ledger.sqlite", metadata: metadata)
        let child = LedgerEnvironment(variables)
        #expect(child.journalOnly)
        #expect(child.project == "Shop" && child.revision == "abc" && child.branch == nil)
        #expect(child.databasePath.hasPrefix("/") && child.databasePath.hasSuffix("/relative/ledger.sqlite"))
        #expect(variables["TESTLEDGER_RUN"] == "r")
    }

    @Test func theCheckoutTestedNamesTheProjectAndIsWhereGitIsAsked() {
        var asked: [String] = []
        let metadata = RunMetadata.resolve(
            environment: [:], directory: "/work/checkouts/Inventory",
            git: { directory in
                asked.append(directory)
                return nil
            })
        #expect(metadata.project == "Inventory", "the folder tested, not the working directory")
        #expect(asked == ["/work/checkouts/Inventory"])
        let configured = RunMetadata.resolve(
            configuredProject: "Shop", environment: [:], directory: "/work/checkouts/Inventory", git: { _ in nil })
        #expect(configured.project == "Shop")
    }
}
