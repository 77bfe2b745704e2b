import Foundation

/// How long `testledger` binaries take to start: `--version`, and `runs` on an empty ledger, each
/// a child process started as the CI job's are (``CIJobCost/child(_:_:)``), in a folder outside
/// any checkout. The binaries take turns, so that a busier moment of the machine falls on each.
enum Startup {
    /// The two commands timed, by label.
    static let commands: [(label: String, arguments: @Sendable (String) -> [String])] = [
        ("--version", { _ in ["--version"] }),
        ("runs (empty ledger)", { ledger in ["runs", "--db", ledger] }),
    ]

    /// Times each command of each binary `repeats` times after one warm-up.
    static func run(binaries: [String], repeats: Int = 10) throws {
        let binaries = try binaries.map { try CIJobCost.testledgerBinary($0).path }
        guard !binaries.isEmpty else { throw BenchmarkError("--startup needs at least one binary") }
        let folder = FileManager.default.temporaryDirectory.appending(path: "startup-benchmark-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        guard FileManager.default.changeCurrentDirectoryPath(folder.path) else {
            throw BenchmarkError("cannot work in \(folder.path)")
        }
        // Each binary's own ledger, created empty by the warm-up of `runs`.
        let ledgers = binaries.indices.map { folder.appending(path: "empty-\($0).sqlite").path }
        var versions: [String] = []
        for (binary, ledger) in zip(binaries, ledgers) {
            versions.append(try CIJobCost.child(binary, ["--version"]).trimmingCharacters(in: .whitespacesAndNewlines))
            _ = try CIJobCost.child(binary, ["runs", "--db", ledger])
        }
        var samples = [[[CIJobCost.Cost]]](
            repeating: [[CIJobCost.Cost]](repeating: [], count: commands.count), count: binaries.count)
        for _ in 0..<repeats {
            for (index, binary) in binaries.enumerated() {
                for (command, (_, arguments)) in commands.enumerated() {
                    samples[index][command].append(
                        try CIJobCost.Cost.once { _ = try CIJobCost.child(binary, arguments(ledgers[index])) })
                }
            }
        }

        print("Start-up: \(repeats) runs of each command after a warm-up, the binaries in turn (ms):")
        for (index, binary) in binaries.enumerated() { print("  [\(index + 1)] \(binary) (\(versions[index]))") }
        print("                                  wall best  median   CPU best  median   ÷ [1] wall  CPU")
        for (index, runs) in samples.enumerated() {
            for (command, label) in commands.map(\.label).enumerated() {
                let (wall, cpu) = (runs[command].map(\.wall).sorted(), runs[command].map(\.cpu).sorted())
                let (firstWall, firstCPU) = (
                    samples[0][command].map(\.wall).min(), samples[0][command].map(\.cpu).min()
                )
                print(
                    "  " + "[\(index + 1)] \(label)".padding(toLength: 30, withPad: " ", startingAt: 0)
                        + String(
                            format: "%9.2f %7.2f %10.2f %7.2f %10.2f× %5.2f×  ≤ 10 ms: %@", wall[0] * 1e3,
                            wall.median * 1e3, cpu[0] * 1e3, cpu.median * 1e3,
                            wall[0] / (firstWall ?? .nan), cpu[0] / (firstCPU ?? .nan),
                            wall[0] <= 0.010 ? "met" : "MISSED"))
            }
        }
    }
}

extension Array where Element == Double {
    /// The middle of these sorted values, or the mean of the two middle ones.
    var median: Double { isEmpty ? .nan : (self[(count - 1) / 2] + self[count / 2]) / 2 }
}
