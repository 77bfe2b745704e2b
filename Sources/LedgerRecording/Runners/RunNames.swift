/// The runs a summary line names: the first few, and how many more, so that a stream of a hundred
/// runs prints one short line.
/// - Parameters:
///   - runs: the run ids, in the order stored.
///   - limit: the most named.
/// - Returns: ` (run A)`, ` (runs A, B, C and 97 more)`, or nothing for no run.
package func runNames(_ runs: [String], limit: Int = 3) -> String {
    switch runs.count {
    case 0: ""
    case 1: " (run \(runs[0]))"
    case ...limit: " (runs \(runs.joined(separator: ", ")))"
    default: " (\(runs.count) runs: \(runs.prefix(limit).joined(separator: ", ")) and \(runs.count - limit) more)"
    }
}
