import Foundation

/// Which run of `name` this is since the folder `$RETRIED_MARKERS` was made: 1 for the first,
/// which leaves a marker file there, 2 for the next…; `nil` without the variable.
func runNumber(_ name: String) -> Int? {
    guard let folder = environment("RETRIED_MARKERS") else { return nil }
    var number = 1
    while true {
        let marker = URL(fileURLWithPath: folder).appendingPathComponent("\(name).\(number)").path
        if !FileManager.default.fileExists(atPath: marker) {
            _ = FileManager.default.createFile(atPath: marker, contents: nil)
            return number
        }
        number += 1
    }
}

/// Whether this is the first run of `name` since `$RETRIED_MARKERS` was made; without the
/// variable, no run is a first one.
func isFirstRun(_ name: String) -> Bool {
    runNumber(name) == 1
}

/// The variable's value, unless it is unset or empty.
func environment(_ name: String) -> String? {
    ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
}
