import Foundation

/// The `TESTLEDGER_*` variables, read in one place for the `testledger` command and the test
/// library alike. An empty variable counts as unset.
public struct LedgerEnvironment: Sendable {
    /// Where a ledger is when nothing names one.
    public static let defaultDatabasePath = ".testledger/ledger.sqlite"

    /// Every variable of the process, the CI's own among them.
    public let variables: [String: String]

    /// Reads `variables`, the process's environment by default.
    /// - Parameter variables: the variables, by name.
    public init(_ variables: [String: String] = ProcessInfo.processInfo.environment) {
        self.variables = variables
    }

    /// The variable's value, unless it is unset or empty.
    /// - Parameter name: the variable's name, such as `TESTLEDGER_DB`.
    /// - Returns: the value; `nil` when the variable is unset or empty.
    public subscript(_ name: String) -> String? {
        variables[name].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `TESTLEDGER_RUN`, when it is a UUID: the run every process of one invocation joins,
    /// lowercased.
    public var run: String? { self["TESTLEDGER_RUN"].flatMap(UUID.init(uuidString:))?.uuidString.lowercased() }
    /// `TESTLEDGER_DB`, else ``defaultDatabasePath``.
    public var databasePath: String { self["TESTLEDGER_DB"] ?? Self.defaultDatabasePath }
    /// `TESTLEDGER_PROJECT`: the project runs are recorded under.
    public var project: String? { self["TESTLEDGER_PROJECT"] }
    /// `TESTLEDGER_REVISION`: the revision under test, such as a git commit.
    public var revision: String? { self["TESTLEDGER_REVISION"] }
    /// `TESTLEDGER_BRANCH`: the branch under test.
    public var branch: String? { self["TESTLEDGER_BRANCH"] }
    /// `TESTLEDGER_CONFIGURATION`: the destination, OS or device the tests run on, set once for
    /// every command of a CI matrix's job.
    public var configuration: String? { self["TESTLEDGER_CONFIGURATION"] }
    /// `TESTLEDGER_URL`: the server a recorder or `upload` sends to.
    public var serverURL: URL? { self["TESTLEDGER_URL"].flatMap(URL.init(string:)) }
    /// `TESTLEDGER_TOKEN`: the write token for ``serverURL``.
    public var token: String? { self["TESTLEDGER_TOKEN"] }
    /// `TESTLEDGER_SPOOL`, else `.testledger/spool`: where batches wait for the server.
    public var spoolPath: String { self["TESTLEDGER_SPOOL"] ?? ".testledger/spool" }
    /// `TESTLEDGER_TEST_RETRIES`: how many more times `testledger record` runs a test that failed;
    /// `nil` when unset or not a number. (`TESTLEDGER_RETRIES` counts retries of sends to a server.)
    public var testRetries: Int? { self[Module.testRetries].flatMap { Int($0) } }
    /// `TESTLEDGER_ATTEMPT_OFFSET`, else 0: the attempts this process's tests already had in the
    /// run, set by `testledger record` when it runs failed tests again. The test library numbers
    /// each attempt after them: the first test case of a retry is attempt `offset + 1`.
    public var attemptOffset: Int { self[Self.attemptOffsetVariable].flatMap { Int($0) }.map { max(0, $0) } ?? 0 }
    /// The name of the variable ``attemptOffset`` reads.
    public static let attemptOffsetVariable = "TESTLEDGER_ATTEMPT_OFFSET"
    /// `TESTLEDGER_JOURNAL_ONLY=1`: the test library only journals; `testledger record` stores.
    public var journalOnly: Bool { variables["TESTLEDGER_JOURNAL_ONLY"] == "1" }
    /// `TESTLEDGER_DISABLE=1`: the test library records nothing.
    public var isDisabled: Bool { variables["TESTLEDGER_DISABLE"] == "1" }

    /// The variables that make the tests `testledger record` starts record into its run and
    /// ledger: the run, the ledger's absolute path, the resolved metadata, journal only, and the
    /// attempts the tests already had.
    /// - Parameters:
    ///   - run: the run id the tests join.
    ///   - databasePath: the ledger's path, made absolute against the working directory.
    ///   - metadata: the run's resolved metadata; only its project, revision and branch are passed on.
    ///   - attemptOffset: the attempts the tests already had in the run: 0 for the command itself.
    /// - Returns: the variables to add to the tests' environment; revision and branch only when known.
    public static func forRecordedTests(
        run: String, databasePath: String, metadata: RunMetadata, attemptOffset: Int = 0
    ) -> [String: String] {
        var variables = [
            "TESTLEDGER_RUN": run,
            "TESTLEDGER_DB": URL(fileURLWithPath: databasePath).standardizedFileURL.path,
            "TESTLEDGER_PROJECT": metadata.project,
            "TESTLEDGER_JOURNAL_ONLY": "1",
            attemptOffsetVariable: String(attemptOffset),
        ]
        variables["TESTLEDGER_REVISION"] = metadata.revision
        variables["TESTLEDGER_BRANCH"] = metadata.branch
        return variables
    }
}

extension LedgerEnvironment: ExpressibleByDictionaryLiteral {
    /// An environment of exactly these variables.
    /// - Parameter elements: the variables and their values; for a name given twice, the last value wins.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
