/// What `verify --isolate`'s runs found: the test's results alone and with its neighbour, `true`
/// for a pass.
package struct IsolationOutcome: VerificationFindings {
    package var alone: [Bool] = []
    package var beside: [Bool] = []
    package var problems: [String] = []

    package var someRunFailed: Bool { alone.contains(false) || beside.contains(false) }
}
