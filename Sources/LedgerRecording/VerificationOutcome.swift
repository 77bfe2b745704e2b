/// What a verification's runs found, whatever ran them.
package struct VerificationOutcome {
    /// Each test's result in each run it ran in, in order, `true` for a pass.
    package var passes: [String: [Bool]] = [:]
    /// Problems storing what the runner wrote, each naming its file.
    package var problems: [String] = []
    /// Whether an interrupt (Ctrl-C) or the deadline stopped the runs early.
    package var stopped = false

    package init() {}
}
