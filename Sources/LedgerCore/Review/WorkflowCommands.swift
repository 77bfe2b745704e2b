/// Failures as GitHub Actions workflow commands (`::error file=…,line=…,title=…::message`), which
/// the runner shows on the diff's lines.
public enum WorkflowCommands {
    /// GitHub shows at most this many annotations of each level per step.
    public static let perLevel = 10

    /// The lines to print: at most ``perLevel`` of each level, in the given order, and a line counting
    /// the failures not marked on a line, when there are any.
    ///
    /// - Parameters:
    ///   - annotations: the placed failures, most useful first.
    ///   - unplaced: failures with no recorded place.
    /// - Returns: the commands, and the count in words for the job's summary (`nil` when every
    ///   failure is marked).
    public static func lines(_ annotations: [FailureAnnotation], unplaced: Int) -> (
        commands: [String], untold: String?
    ) {
        var shown: [FailureAnnotation.Level: Int] = [:]
        var commands: [String] = []
        for annotation in annotations where shown[annotation.level, default: 0] < perLevel {
            shown[annotation.level, default: 0] += 1
            commands.append(command(annotation))
        }
        let beyond = annotations.count - commands.count
        guard beyond + unplaced > 0 else { return (commands, nil) }
        var reasons: [String] = []
        if beyond > 0 { reasons.append("\(beyond) beyond GitHub's \(perLevel) of a kind per step") }
        if unplaced > 0 { reasons.append("\(unplaced) with no file recorded") }
        let total = annotations.count + unplaced
        return (
            commands,
            "\(commands.count) of \(total) failure(s) marked on their lines; not marked: "
                + reasons.joined(separator: ", ")
        )
    }

    /// One workflow command.
    public static func command(_ annotation: FailureAnnotation) -> String {
        "::\(annotation.level.rawValue) file=\(property(annotation.path)),"
            + (annotation.line.map { "line=\($0)," } ?? "")
            + "title=\(property(annotation.title))::\(data(annotation.message))"
    }

    /// A command's message: `%`, CR and LF escaped, so that nothing in it ends the command.
    public static func data(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "%": escaped += "%25"
            case "\r": escaped += "%0D"
            case "\n": escaped += "%0A"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// A command's property value: as ``data(_:)``, and `:` and `,` too.
    public static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
