/// An open `<testsuite>`: what its testcases inherit, and the clock their start times follow.
struct JUnitSuiteFrame {
    var name: String?
    var file: String?
    /// When the next testcase starts: the suite's `timestamp`, or where the enclosing suite's
    /// clock stood, plus the durations of the testcases since; `nil` while that is the run's
    /// start and no suite timestamp has been seen to say when it was.
    var clock: Double?
}
