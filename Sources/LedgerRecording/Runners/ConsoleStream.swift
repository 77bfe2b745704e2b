import Foundation
import LedgerCore
import LedgerImport
import LedgerStore

/// The formats `testledger format` reads, and how it recognises them.
package enum ConsoleFormat {
    package enum Choice: String, CaseIterable {
        case auto, tap, bacon
    }

    /// The format of the first meaningful line; `nil` while the line says nothing yet.
    package static func detect(_ line: Substring) -> Choice? {
        let text = line.trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return nil }
        if text.lowercased().hasPrefix("tap version") || text.hasPrefix("1..") { return .tap }
        // Bacon's knock output writes "ok - …" with no number; TAP producers number their points.
        if text.hasPrefix("ok - ") || text.hasPrefix("not ok - ") { return .bacon }
        if text.hasPrefix("ok ") || text.hasPrefix("not ok ") || text == "ok" || text == "not ok" { return .tap }
        return .bacon
    }

    package static func parser(_ choice: Choice, startedAt: Double) -> any StreamingParser {
        switch choice {
        case .tap: TAPParser(startedAt: startedAt)
        case .auto, .bacon: BaconOutputParser(startedAt: startedAt)
        }
    }
}

/// Feeds a runner's lines to the right parser and stores the events as they come, a few
/// transactions a second, so an interrupted runner leaves what it ran.
package struct ConsoleStream {
    package let database: any ResultStore
    package let run: String
    package let metadata: RunMetadata
    package var choice: ConsoleFormat.Choice
    package let echo: ConsoleEcho
    private var parser: (any StreamingParser)?
    private var held: [(Substring, Double)] = []
    private var pending: [LedgerEvent] = []
    private var lastStore = 0.0
    private var failed = false
    /// Tests whose latest attempt failed: a spec retried until it passed does not fail the run.
    private var failing = Set<String>()

    package init(
        database: any ResultStore, run: String, metadata: RunMetadata, choice: ConsoleFormat.Choice, echo: ConsoleEcho
    ) {
        self.database = database
        self.run = run
        self.metadata = metadata
        self.choice = choice
        self.echo = echo
    }

    package mutating func consume(_ line: Substring, at: Double) throws {
        echo.write(line)
        guard parser != nil || start(with: line, at: at) else {
            held.append((line, at))
            return
        }
        for (early, time) in held { try feed(early, at: time) }
        held.removeAll()
        try feed(line, at: at)
        if at - lastStore >= 0.2 {
            lastStore = at
            try store()
        }
    }

    /// Closes the run; whether anything failed or the run was cut short (no `run.end`).
    package mutating func finish(at: Double) throws -> Bool {
        if parser == nil, !held.isEmpty { _ = start(with: "", at: at) }
        for (early, time) in held { try feed(early, at: time) }
        held.removeAll()
        if var parser = parser.take() {
            defer { self.parser = parser }
            record(try parser.finish(at: at))
        }
        try store()
        return failed || !failing.isEmpty || (parser != nil && !sawRunEnd)
    }

    private var sawRunEnd = false

    /// Picks the parser once the output says what it is; `false` while it does not yet.
    private mutating func start(with line: Substring, at: Double) -> Bool {
        if choice == .auto {
            guard let detected = ConsoleFormat.detect(line) ?? (line.isEmpty ? .bacon : nil) else { return false }
            choice = detected
        }
        let started = held.first?.1 ?? at
        let made = ConsoleFormat.parser(choice, startedAt: started)
        parser = made
        pending.append(.runStart(metadata.runStart(at: started, source: made.source)))
        return true
    }

    private mutating func feed(_ line: Substring, at: Double) throws {
        // Taken out while it reads, so that its state is not copied line after line.
        guard var parser = parser.take() else { return }
        defer { self.parser = parser }
        record(try parser.consume(line, at: at))
    }

    private mutating func record(_ events: [LedgerEvent]) {
        for event in events {
            if case .testEnd(let end) = event {
                if end.outcome.isFailure { failing.insert(end.test) } else { failing.remove(end.test) }
            }
            if case .runEnd(let end) = event {
                sawRunEnd = true
                if end.outcome == .failed { failed = true }
            }
        }
        pending += events
    }

    private mutating func store() throws {
        guard !pending.isEmpty else { return }
        let events = pending
        pending.removeAll()
        let run = self.run
        try database.ingest(keepRunning: true) { sink in
            for event in events { try sink.consume(LedgerRecord(run: run, event: event)) }
        }
    }
}

/// Echoes the runner's lines: coloured on a terminal (green passes, red failures), plain otherwise.
package struct ConsoleEcho {
    package let colored: Bool

    package init(colored: Bool) { self.colored = colored }

    package func write(_ line: Substring) {
        var text = String(line)
        if colored {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("not ok") || line.contains("[FAILED") || line.contains("[ERROR") {
                text = "\u{1B}[31m" + text + "\u{1B}[0m"
            } else if trimmed.hasPrefix("ok") {
                text = "\u{1B}[32m" + text + "\u{1B}[0m"
            } else if line.contains("[MISSING") {
                text = "\u{1B}[33m" + text + "\u{1B}[0m"
            }
        }
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
