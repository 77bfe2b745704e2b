import Foundation
import LedgerCore
import LedgerDelivery
import LedgerImport
import LedgerStore

// Prints ingest and report figures against baselines measured in the same run.
// Usage: swift run -c release ledger-benchmark [--tests 10000] [--runs 100] [--junit-runs 100]
//        [--memory-mb 500]    (then also: ledger-benchmark --peak-rss ledger|read FILE)
//        swift run -c release ledger-benchmark --observer [--tests 2000] [--rounds 7]
//        swift run -c release ledger-benchmark --server [--tests 2000] [--uploads 300] [--clients 8]
//        swift run -c release ledger-benchmark --server --database postgres://… [--tests 2000] [--uploads 300]
//            [--clients 1,8,32]   (--clients none: the bulk rate alone)
//        swift build -c release && .build/release/ledger-benchmark --ci-job [--tests 2000] [--runs 100] [--seed 11]
//            [--repeats 5] [--binary PATH]
//        ledger-benchmark --startup BINARY [BINARY…] [--repeats 10]
//        ledger-benchmark --ingest-binaries A,B[,…] [--tests 10000] [--runs 20] [--junit-runs 20]
//            [--rounds 5]
//        ledger-benchmark --gate [--tests 2000] [--runs 100] [--repeats 7] [--limits docs/benchmarks.md]
//        ledger-benchmark --trends-scale [--tests 10000] [--runs 700] [--repeats 3] [--ledger FILE]

let arguments = CommandLine.arguments
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
func option(_ name: String, _ fallback: Int) -> Int {
    arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil }
        ?? fallback
}

if arguments.contains("--observer") {
    try ObserverOverhead.run(
        tests: option("--tests", 2_000), rounds: option("--rounds", 7), packageRoot: root,
        scratch: root.appending(path: ".build-fixtures/ObserverOverhead"))
    exit(0)
}

/// The value after `name`, if any.
func text(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { arguments.dropFirst($0 + 1).first }
}

if arguments.contains("--ci-job") {
    try CIJobCost.run(
        tests: option("--tests", 2_000), runs: option("--runs", 100), seed: UInt64(option("--seed", 11)),
        repeats: option("--repeats", 5), binary: text("--binary"))
    exit(0)
}

if let index = arguments.firstIndex(of: "--startup") {
    let binaries = arguments.dropFirst(index + 1).prefix { !$0.hasPrefix("--") }
    try Startup.run(binaries: Array(binaries), repeats: option("--repeats", 10))
    exit(0)
}

if let binaries = text("--ingest-binaries") {
    try BinaryIngest.run(
        binaries: binaries.split(separator: ",").map(String.init), tests: option("--tests", 10_000),
        runs: option("--runs", 20), junitRuns: option("--junit-runs", 20), rounds: option("--rounds", 5))
    exit(0)
}

#if Tools
    if arguments.contains("--server"), let index = arguments.firstIndex(of: "--database"),
        arguments.indices.contains(index + 1)
    {
        let clients = arguments.firstIndex(of: "--clients").flatMap { arguments.dropFirst($0 + 1).first }
            .map { $0.split(separator: ",").compactMap { Int($0) } }
        try ServerLoad.wait {
            try await StoreComparison.measure(
                tests: option("--tests", 2_000), uploads: option("--uploads", 300), clients: clients ?? [1, 8, 32],
                database: arguments[index + 1])
        }
        exit(0)
    }

    if arguments.contains("--server") {
        try ServerLoad.run(
            tests: option("--tests", 2_000), uploads: option("--uploads", 300), clients: option("--clients", 8))
        exit(0)
    }
#else
    if arguments.contains("--server") {
        FileHandle.standardError.write(Data("ledger-benchmark: --server needs the Tools trait (the default)\n".utf8))
        exit(2)
    }
#endif

if let index = arguments.firstIndex(of: "--peak-rss"), arguments.count > index + 2 {
    try PeakMemory.measure(
        mode: arguments[index + 1], file: URL(fileURLWithPath: arguments[index + 2]),
        extra: arguments.dropFirst(index + 3).first)
    exit(0)
}

/// The gate's limits: `--limits FILE`, else this package's `docs/benchmarks.md`.
let gateLimits = text("--limits").map { URL(fileURLWithPath: $0) } ?? root.appending(path: "docs/benchmarks.md")

if arguments.contains("--trends-scale") {
    var scenario = TrendsScale.Scenario()
    scenario.tests = option("--tests", scenario.tests)
    scenario.runs = option("--runs", scenario.runs)
    scenario.repeats = option("--repeats", scenario.repeats)
    scenario.ledger = text("--ledger").map { URL(fileURLWithPath: $0) }
    exit(try TrendsScale.run(scenario, limits: gateLimits) ? 0 : 1)
}

if arguments.contains("--gate") {
    var scenario = Gate.Scenario()
    scenario.tests = option("--tests", scenario.tests)
    scenario.runs = option("--runs", scenario.runs)
    scenario.repeats = option("--repeats", scenario.repeats)
    exit(try Gate.run(scenario: scenario, limits: gateLimits) ? 0 : 1)
}

let folder = FileManager.default.temporaryDirectory.appending(path: "ledger-benchmark-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

let history = SyntheticHistory(tests: option("--tests", 10_000), runs: option("--runs", 100))
let stream = folder.appending(path: "history.ndjson")
let results = try history.writeLedgerStream(to: stream)
let streamBytes = (try FileManager.default.attributesOfItem(atPath: stream.path)[.size] as? Int) ?? 0
print(
    "Synthetic history: \(history.tests) tests × \(history.runs) runs = \(results) results, \(streamBytes >> 20) MiB of NDJSON"
)

let context = ImportContext(
    runID: UUID().uuidString, sourceName: stream.path, metadata: RunMetadata(project: "Bench"), fallbackStart: 0)
/// Runs `body` over the stream with its progress shown on a terminal.
func overStream<T>(_ label: String, _ body: () throws -> T) rethrows -> T {
    let progress = FilesProgress(label, totalBytes: streamBytes)
    progress.begin(size: streamBytes)
    defer { progress.finish() }
    return try body()
}
let decodeSeconds = try overStream("decode") {
    try Timing.seconds {
        var sink = CountingSink()
        try LedgerStreamImporter().importResults(from: .file(stream), context: context, into: &sink)
    }
}
let database = try LedgerDatabase(path: folder.appending(path: "ledger.sqlite").path)
let ingestSeconds = try overStream("ingest") {
    try Timing.seconds {
        try database.ingest { sink in
            try LedgerStreamImporter().importResults(from: .file(stream), context: context, into: &sink)
        }
    }
}
Report.rate("NDJSON decode only (baseline)", results, decodeSeconds)
Report.rate("NDJSON ingest into SQLite", results, ingestSeconds, target: 200_000)
print(String(format: "  ingest ÷ decode-only time: %.2f×", ingestSeconds / decodeSeconds))

try ReportCost.run(database: database, project: "Bench", runs: history.runs, results: results)

let junitRuns = option("--junit-runs", 100)
let junitFiles = try SyntheticHistory(tests: history.tests, runs: junitRuns).writeJUnit(
    to: folder.appending(path: "junit"))
/// Ingests every JUnit file into a fresh database with `importer`; returns the seconds taken.
func ingestJUnit(_ importer: any ResultImporter, name: String) throws -> Double {
    let database = try LedgerDatabase(path: folder.appending(path: "\(name).sqlite").path)
    let progress = FilesProgress(name, totalBytes: junitFiles.reduce(0) { $0 + FilesProgress.size(of: $1.path) })
    defer { progress.finish() }
    return try Timing.seconds {
        for (index, file) in junitFiles.enumerated() {
            progress.begin(size: FilesProgress.size(of: file.path))
            defer { progress.end() }
            let context = ImportContext(
                runID: String(format: "00000000-0000-4000-9000-%012x", index), sourceName: file.path,
                metadata: RunMetadata(project: "Bench"), fallbackStart: 0)
            try database.ingest { sink in
                try importer.importResults(from: .file(file), context: context, into: &sink)
            }
        }
    }
}
let junitParseSeconds = try Timing.seconds {
    for file in junitFiles {
        var sink = CountingSink()
        let context = ImportContext(
            runID: UUID().uuidString, sourceName: file.path, metadata: RunMetadata(project: "Bench"), fallbackStart: 0)
        try JUnitImporter().importResults(from: .file(file), context: context, into: &sink)
    }
}
let junitSerialSeconds = try ingestJUnit(JUnitImporter(), name: "junit-serial")
let junitSeconds = try ingestJUnit(InputFormat.junit.importer, name: "junit")
Report.rate("JUnit XML parse only (baseline)", history.tests * junitRuns, junitParseSeconds)
Report.rate("JUnit ingest, parse and store in turn", history.tests * junitRuns, junitSerialSeconds)
Report.rate("JUnit ingest, parse beside the store", history.tests * junitRuns, junitSeconds, target: 100_000)
print(
    String(
        format: "  JUnit ÷ NDJSON ingest time per result: %.2f×",
        (junitSeconds / Double(history.tests * junitRuns)) / (ingestSeconds / Double(results))))

let memoryMB = option("--memory-mb", 500)
if memoryMB > 0 {
    try PeakMemory.compare(megabytes: memoryMB, in: folder)
}
