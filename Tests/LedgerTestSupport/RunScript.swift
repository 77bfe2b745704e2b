import Foundation
import LedgerCore

/// Writes a run's events tersely: `RunScript(project:).start().pass("A/a").fail("A/b").end()`.
public struct RunScript: Sendable {
    public let run: String
    public private(set) var records: [LedgerRecord] = []
    public var clock: Double
    public var project: String
    public var revision: String?

    public init(
        run: String = UUID().uuidString.lowercased(), project: String = "Demo", revision: String? = nil,
        at: Double = 1_700_000_000
    ) {
        self.run = run
        self.project = project
        self.revision = revision
        self.clock = at
    }

    /// Appends any event of this run.
    public func with(_ event: LedgerEvent) -> RunScript {
        var copy = self
        copy.records.append(LedgerRecord(run: run, event: event))
        return copy
    }

    public func start(
        source: String = "xctest", configuration: String? = nil, branch: String? = nil, kind: RunKind? = nil,
        labels: [String: String]? = nil
    ) -> RunScript {
        with(
            .runStart(
                .init(
                    at: clock, project: project, source: source, revision: revision, branch: branch,
                    labels: labels, configuration: configuration, kind: kind)))
    }

    /// One result (an attempt) of a test: start, an issue when it failed, end.
    public func result(
        _ id: String, _ outcome: Outcome, attempt: Int = 1, duration: Double = 0.01, layer: Layer? = nil,
        file: String? = nil
    ) -> RunScript {
        var script = with(.testStart(.init(at: clock, test: id, attempt: attempt, file: file, layer: layer)))
        if outcome.isFailure {
            script = script.with(
                .issue(.init(at: clock, test: id, attempt: attempt, message: "failed", file: file, line: 1)))
        }
        script.clock += duration
        return script.with(
            .testEnd(.init(at: script.clock, test: id, attempt: attempt, outcome: outcome, duration: duration)))
    }

    public func pass(_ id: String, duration: Double = 0.01) -> RunScript { result(id, .passed, duration: duration) }
    public func fail(_ id: String, duration: Double = 0.01) -> RunScript { result(id, .failed, duration: duration) }

    public func end() -> RunScript { with(.runEnd(.init(at: clock, outcome: .finished))) }

    /// The events as Ledger event stream text (NDJSON).
    public var ndjson: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return records.map { record in
            String(decoding: (try? encoder.encode(record)) ?? Data(), as: UTF8.self)
        }.joined(separator: "\n") + "\n"
    }
}
