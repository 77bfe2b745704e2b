import ArgumentParser
import Foundation
import LedgerCore
import LedgerDelivery
import LedgerRecording
import LedgerStore

extension TestLedgerCommand {
    /// `testledger export …`: runs in other tools' formats.
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export", abstract: "Send runs to other tools.", subcommands: [Traces.self])

        /// `testledger export otlp RUN… --endpoint URL`.
        struct Traces: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "otlp",
                abstract: "Send runs as OpenTelemetry traces (OTLP's JSON over HTTP) to a collector.",
                discussion: """
                    A run is a trace; each test attempt a span under it; its activities child spans; its \
                    predicates, captures and issues span events; a failure the span's status.
                    """)

            @Argument(help: "The runs (default: the newest).")
            var runs: [String] = []
            @Option(
                help: ArgumentHelp(
                    "The collector: its base address (traces go to /v1/traces) or the full traces address "
                        + "(default: $OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, else $OTEL_EXPORTER_OTLP_ENDPOINT).",
                    valueName: "url"))
            var endpoint: String?
            @Option(
                name: .customLong("header"),
                help: ArgumentHelp(
                    "A header for the collector, NAME=VALUE; repeatable (also $OTEL_EXPORTER_OTLP_HEADERS).",
                    valueName: "name=value"))
            var headers: [String] = []
            @OptionGroup var store: StoreOptions

            func run() throws {
                let environment = ProcessInfo.processInfo.environment
                let traces = endpoint ?? environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]
                let base = traces == nil ? environment["OTEL_EXPORTER_OTLP_ENDPOINT"] : nil
                guard let given = traces ?? base else {
                    throw ValidationError("Name the collector with --endpoint URL (or $OTEL_EXPORTER_OTLP_ENDPOINT)")
                }
                guard
                    let exporter = TraceExporter(
                        address: given, base: base != nil, extra: headers, environment: environment)
                else { throw ValidationError("--endpoint \(given) is not an http(s) address") }
                let database = try store.openForReading()
                var ids = runs
                if ids.isEmpty {
                    guard let newest = try database.latestRunID() else { throw StoreError.noSuchRun("at all") }
                    ids = [newest]
                }
                for id in ids {
                    let (request, spans) = try database.traces(run: id)
                    if let problem = exporter.send(request) {
                        printError("testledger: run \(id) was not exported: \(problem)")
                        throw ExitCode.failure
                    }
                    print("testledger: run \(id): \(spans) span(s) to \(exporter.endpoint.absoluteString)")
                }
            }
        }
    }
}
