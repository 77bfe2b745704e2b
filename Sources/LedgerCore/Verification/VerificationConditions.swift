/// The conditions a test's failures came under, as a verification can recreate them: its
/// preceding-test suspect runs before it each time; a host or configuration suspect that this
/// machine is not is named, since the failure may not show here.
public struct VerificationConditions: Hashable, Sendable {
    /// Tests to run before the test each time: the neighbour its failing attempts followed.
    public var runsBefore: [String] = []
    /// Tests to run beside the test each time, side by side as the runner schedules them: the
    /// tests that ran with it when it failed, for a test that fails only beside other tests.
    public var runsBeside: [String] = []
    /// The failures' conditions this run lacks, in words: "failures came from host ci-mac-3;
    /// this is ci-linux-1".
    public var missing: [String] = []

    /// The conditions from the test's culprit, and where this run happens.
    /// - Parameters:
    ///   - culprit: the test's culprit, when one was judged.
    ///   - host: this machine's name, when known.
    ///   - configuration: this run's configuration, when one is named.
    ///   - failsOnlyBeside: the tests beside its failures, when it fails only beside other tests
    ///     (``CulpritReport/failsOnlyBeside``).
    public init(
        culprit: CulpritReport.Brief?, host: String?, configuration: String?, failsOnlyBeside: [String]? = nil
    ) {
        runsBeside = failsOnlyBeside ?? []
        guard let suspect = culprit?.suspect else { return }
        switch suspect.kind {
        case .precedingTest:
            runsBefore = [suspect.name]
        case .host where suspect.name != host:
            missing = ["failures came from host \(suspect.name); this is \(host ?? "an unnamed host")"]
        case .configuration where suspect.name != (configuration ?? ""):
            let here = configuration.map { "this run's is \($0)" } ?? "this run names none"
            missing = ["failures came from configuration \(suspect.name); \(here)"]
        default:
            break
        }
    }
}
