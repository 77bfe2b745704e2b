import ArgumentParser
import Foundation
import Hummingbird
import LedgerCore
import LedgerDelivery
import LedgerRecording
import LedgerServer
import LedgerStore

extension TestLedgerCommand {
    /// `testledger serve`: the team's ingestion service, report API and dashboard.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve the ledger over HTTP: uploads from CI, the report API and the dashboard.",
            discussion: """
                Uploads need a write token and reading a read token (`testledger token create`), \
                unless --public-read opens the read side. Serving on an address other than loopback \
                is refused until a token exists. SIGTERM or SIGINT stops accepting connections and \
                finishes the requests under way before exiting.
                """)

        @Option(help: "The address to listen on.")
        var host = "127.0.0.1"
        @Option(help: "The port (0 picks a free one; the address is printed once listening).")
        var port = 8080
        @Option(name: .customLong("max-body"), help: "The largest upload accepted, in bytes, after decompression.")
        var maxBody = 64 << 20
        @Flag(help: "Let anyone read reports and the dashboard without a token.")
        var publicRead = false
        @Option(
            name: .customLong("public-url"),
            help: "The address people reach it at behind a proxy (https://… marks the sign-in cookie Secure).")
        var publicURL: String?
        @Option(name: .customLong("session-hours"), help: "How long a dashboard sign-in lasts.")
        var sessionHours = 12.0
        @Option(
            name: .customLong("otlp-endpoint"),
            help: ArgumentHelp(
                "Send every stored run, once it has ended, to this OpenTelemetry collector as a trace (as "
                    + "`export otlp`; headers from $OTEL_EXPORTER_OTLP_HEADERS).",
                valueName: "url"))
        var otlpEndpoint: String?

        @OptionGroup var store: StoreOptions

        func run() async throws {
            let config = try ProjectConfiguration.load()
            var configuration = ServerConfiguration(
                host: host, port: port, maximumBodyBytes: maxBody, publicRead: publicRead)
            configuration.quarantine = config.quarantine
            configuration.thresholds = config.flaky
            configuration.window = config.reportWindow
            configuration.publicURL = publicURL
            configuration.sessionLifetime = sessionHours * 3_600
            configuration.fixLanding = FixLanding(branch: config.fixLanding.branch, runs: config.fixLanding.runs)
            if !config.notify.isEmpty {
                configuration.notifications = NotificationDelivery(
                    targets: config.notify, publicURL: publicURL.flatMap(URL.init(string:)))
            }
            if let otlpEndpoint {
                guard
                    let exporter = TraceExporter(
                        address: otlpEndpoint, environment: ProcessInfo.processInfo.environment)
                else { throw ValidationError("--otlp-endpoint \(otlpEndpoint) is not an http(s) address") }
                configuration.traces = exporter
            }
            let host = configuration.host
            let store = self.store
            let settings = configuration
            let layers = LayerClassifier(rules: config.layers)
            let thresholds = config.flaky
            let metrics = ServerMetrics()
            // Opening the store and checking its tokens may wait on a database server: not on
            // Swift's shared threads, which that server's answers need.
            let application = try await Blocking.run {
                let database = try store.open()
                let path = database.locationDescription
                return UncheckedSendable(
                    try LedgerServer.application(
                        database: database, configuration: settings, metrics: metrics, layers: layers,
                        thresholds: thresholds
                    ) { port in
                        FileHandle.standardOutput.write(
                            Data("testledger: serving \(path) on http://\(host):\(port)\n".utf8))
                    })
            }.value
            try await LedgerServer.runUntilSignalled(application, metrics: metrics) { news in
                FileHandle.standardOutput.write(Data("testledger: \(news)\n".utf8))
            }
        }
    }
}

/// A value handed from the thread that made it to the task that uses it, never shared.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
