import Foundation
import LedgerDelivery
import Testing

/// Where `export otlp` and `serve --otlp-endpoint` send traces, and the headers they send.
struct TraceExporterTests {
    @Test func aBaseAddressGetsTheTracesPathAndAFullOneIsKept() {
        #expect(TraceExporter.tracesAddress("http://otel:4318")?.absoluteString == "http://otel:4318/v1/traces")
        #expect(TraceExporter.tracesAddress("http://otel:4318/")?.absoluteString == "http://otel:4318/v1/traces")
        #expect(TraceExporter.tracesAddress("https://otel/custom/in")?.absoluteString == "https://otel/custom/in")
        // OTEL_EXPORTER_OTLP_ENDPOINT is a base address even with a path.
        #expect(
            TraceExporter.tracesAddress("https://otel/tenant", base: true)?.absoluteString
                == "https://otel/tenant/v1/traces")
        #expect(TraceExporter.tracesAddress("otel:4318") == nil && TraceExporter.tracesAddress("ftp://otel") == nil)
    }

    @Test func headersAreReadAsOpenTelemetryWritesThem() {
        #expect(
            TraceExporter.headers("api-key=a%20b, X-Team = ios,broken") == ["api-key": "a b", "X-Team": "ios"])
    }
}
