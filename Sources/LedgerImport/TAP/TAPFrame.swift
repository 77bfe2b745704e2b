/// One level of a TAP stream: the document itself (level 0) or a subtest, 4 spaces deeper per
/// level.
struct TAPFrame {
    /// Unique in the stream, so tests read inside a subtest can wait for its name.
    let id: Int
    let level: Int
    /// From `# Subtest: name`, else from the test point that closes it; the document's is the
    /// file `prove -v` named, if any.
    var name: String?
    var plan: TAPPlan?
    /// How many test points were read at this level.
    var points = 0
    /// Whether a test inside it (at any depth) failed.
    var failedBelow = false
    /// The line that opened it, for notes.
    let line: Int
}

/// A `# Subtest: name` line waiting for the subtest it announces: the one opening at `level`.
struct TAPSubtestAnnouncement {
    var name: String?
    var level: Int
}
