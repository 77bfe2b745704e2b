import Foundation
import LedgerCore
import LedgerImport
import LedgerTestSupport
import Testing

/// Runs the real `bacon` (and Ruby) on the fixture suite Tests/Fixtures/BaconSpecs, with the
/// TestLedger module loaded for the suite's helpers, and parses what it printed.
enum BaconSpecs {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let fixture = packageRoot.appending(path: "Tests/Fixtures/BaconSpecs")
    static let module = packageRoot.appending(path: "Formatters/bacon/testledger.rb").path
    static let rubyMotionDriver = packageRoot.appending(path: "Formatters/bacon/test/rubymotion_hooks.rb").path

    /// The fixture's spec files, in the order a shell's `spec/*_spec.rb` gives.
    static let specFiles: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixture.appending(path: "spec").path)) ?? []
        return names.filter { $0.hasSuffix("_spec.rb") }.sorted().map { "spec/" + $0 }
    }()

    /// `bacon` on the PATH, or `nil`.
    static let bacon: String? = executable("bacon")
    static let ruby: String? = executable("ruby")
    static let skipReason: Comment = "bacon (Debian's ruby-bacon) is not installed"

    static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    typealias Output = ChildProcess.Output

    /// `bacon -r testledger OPTIONS spec/*_spec.rb` in the fixture folder.
    static func run(_ options: [String], environment: [String: String] = [:]) async throws -> Output {
        try await launch(try #require(bacon), ["-r", module] + options + specFiles, environment: environment)
    }

    /// The RubyMotion stand-in driver, with `output=<output>`.
    static func runRubyMotion(output: String, environment: [String: String] = [:]) async throws -> Output {
        try await launch(
            try #require(ruby), [rubyMotionDriver], environment: environment.merging(["output": output]) { $1 })
    }

    static func launch(_ executable: String, _ arguments: [String], environment: [String: String]) async throws
        -> Output
    {
        try await ChildProcess.run(
            URL(fileURLWithPath: executable), arguments,
            environment: ChildProcess.cleanEnvironment().merging(environment) { $1 }, in: fixture)
    }

    /// Parses `text` line by line; `times`, when given, are the lines' arrival times.
    static func parse(_ text: String, times: [Double]? = nil, startedAt: Double = 100) throws -> BaconParse {
        var parser = BaconOutputParser(startedAt: startedAt)
        var events: [LedgerEvent] = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() where index < lines.count - 1 || !line.isEmpty {
            events += try parser.consume(line, at: times?[index])
        }
        events += try parser.finish(at: nil)
        return BaconParse(events: events, parser: parser)
    }

    /// The records of a Ledger event stream the module wrote.
    static func records(inEventsFile path: String) throws -> [LedgerRecord] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            try JSONDecoder().decode(LedgerRecord.self, from: Data(line.utf8))
        }
    }
}

/// What a parse produced.
struct BaconParse: RecordedEvents {
    var events: [LedgerEvent]
    var parser: BaconOutputParser
}
