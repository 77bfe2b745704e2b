import ArgumentParser
import Foundation
import LedgerCore
import LedgerDelivery
import LedgerRecording
import LedgerStore

extension TestLedgerCommand {
    /// `testledger quarantine add|remove|list|log|args`: mute or skip tests that cannot be trusted.
    struct Quarantine: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "quarantine",
            abstract: "Mute or skip tests that cannot be trusted, with an audit trail of every change.",
            subcommands: [Add.self, Remove.self, List.self, Log.self, Args.self])

        /// Which tests, of which project and configuration, in which ledger.
        struct Selection: ParsableArguments {
            @Option(help: "The project (default: .testledger.yml's, else the newest run's).")
            var project: String?
            @Option(help: "Only runs of this configuration (default: every configuration).")
            var configuration: String?
            @OptionGroup var store: StoreOptions

            var configurationKey: String { configuration ?? QuarantinedTest.everyConfiguration }

            /// Opens the ledger, then settles the project: the one given, else `.testledger.yml`'s,
            /// else the newest run's.
            func open() throws -> (database: any ResultStore, project: String) {
                let database = try store.open()
                return (database, try Quarantine.project(project, in: database))
            }
        }

        struct Add: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "add",
                abstract: "Quarantine tests: muted ones run but cannot fail the build; skipped ones do not run.")

            @Argument(help: "Test ids, as `report flaky` shows them.")
            var tests: [String]
            @Option(help: "mute (run, record, do not fail the build) or skip (do not run).")
            var mode: QuarantineMode = .mute
            @Option(help: "Why: shown wherever the quarantine is.")
            var reason: String
            @Option(help: "When it ends by itself: a date (2026-12-31) or a span from now (14d).")
            var until: String?
            @Option(help: "Who quarantines them (default: $USER).")
            var by: String?
            @Flag(help: "Quarantine ids the ledger has never seen.")
            var force = false

            @OptionGroup var selection: Selection

            func validate() throws {
                if tests.isEmpty { throw ValidationError("name at least one test id") }
                if reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                    throw ValidationError("--reason must say why")
                }
            }

            func run() throws {
                let (database, project) = try selection.open()
                if !force {
                    let known = try database.testIDs(project: project)
                    let knownSet = Set(known)
                    let unknown = tests.filter { !knownSet.contains($0) }
                    if !unknown.isEmpty {
                        throw LedgerInputError(
                            source: "quarantine add",
                            problem: unknown.map { id in
                                let near = ClosestTestIDs.suggest(for: id, among: known)
                                return "project \(project) has no test \(id)"
                                    + (near.isEmpty ? "" : " (did you mean \(near.joined(separator: ", "))?)")
                            }.joined(separator: "; "),
                            fix: "check the ids, or pass --force to quarantine ids the ledger has not seen yet")
                    }
                }
                let now = Date().timeIntervalSince1970
                let ends = try until.map { try TimeWindow.end($0, now: Date(timeIntervalSince1970: now)) }
                if let ends, ends <= now {
                    throw LedgerInputError(source: "--until", problem: "that time is past", fix: "give a later one")
                }
                let changes = try database.quarantine(
                    tests.map {
                        QuarantinedTest(
                            project: project, test: $0, configuration: selection.configurationKey, mode: mode,
                            reason: reason, by: by ?? Quarantine.actor, since: now, until: ends)
                    })
                for change in changes { print("\(change.action.rawValue)\t\(mode.rawValue)\t\(change.test)") }
                if changes.isEmpty { print("already quarantined so; nothing changed") }
            }
        }

        struct Remove: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "remove", abstract: "Take tests out of quarantine.")

            @Argument(help: "Test ids, as `quarantine list` shows them.")
            var tests: [String]
            @Option(help: "Why they are trusted again.")
            var reason = "released"
            @Option(help: "Who releases them (default: $USER).")
            var by: String?

            @OptionGroup var selection: Selection

            func run() throws {
                let (database, project) = try selection.open()
                let changes = try database.release(
                    tests, project: project, configuration: selection.configurationKey,
                    reason: reason, by: by ?? Quarantine.actor, at: Date().timeIntervalSince1970)
                for change in changes { print("removed\t\(change.test)") }
            }
        }

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "list", abstract: "The tests in quarantine now.")

            @Option(help: "The project (default: .testledger.yml's, else the newest run's).")
            var project: String?
            @OptionGroup var reporting: ReportOptions

            func run() throws {
                let project = try project ?? Quarantine.project(nil, in: reporting.store.openForReading())
                let tests = try Quarantine.current(project: project, store: reporting.store)
                try reporting.output.print(tests) { QuarantineRendering.list(tests) }
            }
        }

        struct Log: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "log",
                abstract: "Every change to the quarantine, oldest first: who, when, why, and on what evidence.")

            @Option(help: "The project (default: .testledger.yml's, else the newest run's).")
            var project: String?
            @OptionGroup var reporting: ReportOptions

            func run() throws {
                let database = try reporting.store.openForReading()
                let changes = try database.quarantineLog(project: try Quarantine.project(project, in: database))
                try reporting.output.print(changes) { QuarantineRendering.log(changes) }
            }
        }

        struct Args: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "args",
                abstract: "Print the arguments that skip the skipped tests, for a runner testledger does not wrap.",
                discussion: """
                    swift test $(testledger quarantine args --for swift-test)
                    xcodebuild test … $(testledger quarantine args --for xcodebuild)
                    export $(testledger quarantine args --for bacon)   # the list for the Bacon module, \
                    in a file: RubyMotion's simulator cannot ask testledger itself
                    """)

            @Option(name: .customLong("for"), help: "swift-test, xcodebuild or bacon.")
            var runner: TestRunner
            @OptionGroup var selection: Selection

            func run() throws {
                let store = selection.store
                let project = try selection.project ?? Quarantine.project(nil, in: store.openForReading())
                let entries = try Quarantine.current(project: project, store: store)
                let arguments = try QuarantineList.arguments(
                    for: runner, entries: entries, configuration: selection.configuration ?? "",
                    moduleFile: QuarantineList.cacheFile(project: project, ledgerFile: store.filePath)
                        .deletingPathExtension().appendingPathExtension("bacon.json"))
                if !arguments.isEmpty { print(SkipArguments.substitutionLine(arguments)) }
            }
        }

        /// The quarantine in force now: the server's when `TESTLEDGER_URL` is set (a note on
        /// standard error when its saved copy stands in), else the ledger's.
        static func current(project: String, store: StoreOptions) throws -> [QuarantinedTest] {
            try QuarantineList.inForce(project: project, ledgerFile: store.filePath, local: store.openForReading)
        }

        /// The project as every command takes it (``ProjectOption``).
        static func project(_ given: String?, in database: any ResultStore) throws -> String {
            if let named = try ProjectOption.named(given) { return named }
            guard let newest = try database.latestProject() else {
                throw LedgerInputError(
                    source: "--project", problem: "the ledger has no runs yet", fix: "pass --project")
            }
            return newest
        }

        /// Who is changing the quarantine, when not given: the user's name.
        static var actor: String {
            let environment = ProcessInfo.processInfo.environment
            return environment["GITHUB_ACTOR"] ?? environment["USER"] ?? NSUserName()
        }

    }
}

extension QuarantineMode: ExpressibleByArgument {}
