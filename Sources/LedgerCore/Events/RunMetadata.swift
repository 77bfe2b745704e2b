/// What is known about a run before its results are read: from flags, CI variables or git.
public struct RunMetadata: Hashable, Sendable {
    /// The project the run belongs to.
    public var project: String
    /// The revision under test, such as a git commit; `nil` when unknown.
    public var revision: String?
    /// The branch under test; `nil` when unknown.
    public var branch: String?
    /// Where in CI the run happens: service, build, job, link; `nil` when nothing is known of it.
    public var ci: LedgerEvent.CI?
    /// The machine that runs the tests; `nil` when unknown.
    public var host: String?
    /// The CI re-run number of the job.
    public var ciAttempt: Int?
    /// The destination, OS or device (such as `iPhone 15 / iOS 18`), part of a test's identity;
    /// `nil` for none.
    public var configuration: String?
    /// Free-form labels; `nil` for none.
    public var labels: [String: String]?

    /// Creates metadata from its parts.
    /// - Parameters:
    ///   - project: the project the run belongs to.
    ///   - revision: the revision under test, when known.
    ///   - branch: the branch under test, when known.
    ///   - ci: where in CI the run happens, when known.
    ///   - host: the machine that runs the tests, when known.
    ///   - ciAttempt: the CI re-run number of the job, when known.
    ///   - configuration: the destination, OS or device, if any.
    ///   - labels: free-form labels, if any.
    public init(
        project: String, revision: String? = nil, branch: String? = nil,
        ci: LedgerEvent.CI? = nil, host: String? = nil, ciAttempt: Int? = nil,
        configuration: String? = nil, labels: [String: String]? = nil
    ) {
        self.project = project
        self.revision = revision
        self.branch = branch
        self.ci = ci
        self.host = host
        self.ciAttempt = ciAttempt
        self.configuration = configuration
        self.labels = labels
    }

    /// A `run.start` event carrying this metadata.
    /// - Parameters:
    ///   - at: when the run began, in seconds since 1970.
    ///   - source: what produced the run, such as `junit` or `tap`.
    ///   - configuration: a configuration the input itself names, which wins over ``configuration``;
    ///     `nil` to keep that.
    /// - Returns: the event's payload.
    public func runStart(at: Double, source: String, configuration: String? = nil)
        -> LedgerEvent.RunStart
    {
        LedgerEvent.RunStart(
            at: at, project: project, source: source, revision: revision, branch: branch,
            ci: ci, host: host, attempt: ciAttempt, labels: labels,
            configuration: configuration ?? self.configuration)
    }
}
