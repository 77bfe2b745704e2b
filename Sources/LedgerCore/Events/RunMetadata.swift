/// What is known about a run before its results are read: from flags, CI variables or git.
public struct RunMetadata: Hashable, Sendable {
    public var project: String
    public var revision: String?
    public var branch: String?
    public var ci: LedgerEvent.CI?
    public var host: String?
    /// The CI re-run number of the job.
    public var ciAttempt: Int?
    public var configuration: String?
    public var labels: [String: String]?

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
    public func runStart(at: Double, source: String, configuration: String? = nil)
        -> LedgerEvent.RunStart
    {
        LedgerEvent.RunStart(
            at: at, project: project, source: source, revision: revision, branch: branch,
            ci: ci, host: host, attempt: ciAttempt, labels: labels,
            configuration: configuration ?? self.configuration)
    }
}
