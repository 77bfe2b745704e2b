/// What a test point's diagnostics say: its YAML block (TAP13/14) and the `#` comment lines
/// that follow a `not ok` (TAP12 producers such as Test::More and Bacon print failures there).
struct TAPDiagnostics: Equatable {
    /// `duration_ms`, in seconds.
    var duration: Double?
    /// `message`, else node:test's `error`, else the comment lines.
    var message: String?
    /// `stack`, or the comment lines when they carried the message.
    var stack: String?
    /// Where the test is: node:test's `location`, else `at`.
    var testLocation: TAPLocation?
    /// Where it failed: `at`, else the first stack frame in the test's file, else the first
    /// frame, else the test's location, else the first place the comments name.
    var failureLocation: TAPLocation?

    /// Reads the YAML block `yaml` (possibly empty) and the `comments` after the test point.
    init(yaml: [String: TAPYAMLValue], comments: [String]) {
        if let text = yaml["duration_ms"]?.text, let milliseconds = Double(text), milliseconds.isFinite,
            milliseconds >= 0
        {
            duration = milliseconds / 1000
        }
        message = [yaml["message"], yaml["error"]].lazy.compactMap { $0?.text }.first { !$0.isEmpty }
        stack = yaml["stack"]?.text.flatMap { $0.isEmpty ? nil : $0 }
        let at = Self.location(yaml["at"])
        testLocation = Self.location(yaml["location"]) ?? at
        let frames = stack.map(TAPLocation.frames(in:)) ?? []
        failureLocation =
            at ?? frames.first { $0.file == testLocation?.file } ?? frames.first ?? testLocation
        guard !comments.isEmpty else { return }
        let text = comments.joined(separator: "\n")
        if message == nil { message = text } else if stack == nil { stack = text }
        if failureLocation == nil {
            failureLocation = comments.lazy.compactMap { TAPLocation.find(in: Substring($0)) }.first
        }
    }

    /// An `at`/`location` value: a `{file, line}` map or `file:line[:column]` text.
    private static func location(_ value: TAPYAMLValue?) -> TAPLocation? {
        switch value {
        case .map(let map):
            guard let file = map["file"], !file.isEmpty, let line = map["line"].flatMap({ Int($0) }) else {
                return nil
            }
            return TAPLocation(file: file.hasPrefix("file://") ? String(file.dropFirst(7)) : file, line: line)
        case .text(let text):
            return TAPLocation(Substring(text))
        case .list, nil:
            return nil
        }
    }
}
