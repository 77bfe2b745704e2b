/// The parts of OTLP's JSON encoding of traces that an export writes
/// (`opentelemetry/proto/trace/v1/trace.proto`, ids in hex, 64-bit numbers as strings).
public enum OTLP {
    /// What `POST /v1/traces` takes.
    public struct TracesRequest: Codable, Sendable {
        public var resourceSpans: [ResourceSpans]

        public init(resourceSpans: [ResourceSpans]) { self.resourceSpans = resourceSpans }
    }

    public struct ResourceSpans: Codable, Sendable {
        public var resource: Resource
        public var scopeSpans: [ScopeSpans]
    }

    public struct Resource: Codable, Sendable {
        public var attributes: [Attribute]
    }

    public struct ScopeSpans: Codable, Sendable {
        public var scope: Scope
        public var spans: [Span]
    }

    public struct Scope: Codable, Sendable {
        public var name: String
        public var version: String
    }

    public struct Span: Codable, Sendable {
        public var traceId: String
        public var spanId: String
        public var parentSpanId: String?
        public var name: String
        /// `SPAN_KIND_INTERNAL`.
        public var kind = 1
        public var startTimeUnixNano: String
        public var endTimeUnixNano: String
        public var attributes: [Attribute]
        public var events: [Event]
        public var status: Status

        init(
            traceId: String, spanId: String, parentSpanId: String?, name: String, startTimeUnixNano: String,
            endTimeUnixNano: String, attributes: [Attribute], events: [Event], status: Status
        ) {
            (self.traceId, self.spanId, self.parentSpanId, self.name) = (traceId, spanId, parentSpanId, name)
            (self.startTimeUnixNano, self.endTimeUnixNano) = (startTimeUnixNano, endTimeUnixNano)
            (self.attributes, self.events, self.status) = (attributes, events, status)
        }
    }

    public struct Event: Codable, Sendable {
        public var timeUnixNano: String
        public var name: String
        public var attributes: [Attribute]
    }

    public struct Status: Codable, Sendable {
        /// 0 unset, 1 ok, 2 error.
        public var code: Int
        public var message: String?

        static let unset = Status(code: 0)
        static let ok = Status(code: 1)
        static func error(_ message: String) -> Status { Status(code: 2, message: message) }
    }

    public struct Attribute: Codable, Sendable {
        public var key: String
        public var value: Value

        static func string(_ key: String, _ value: String) -> Attribute {
            Attribute(key: key, value: Value(stringValue: value))
        }
        static func int(_ key: String, _ value: Int) -> Attribute {
            Attribute(key: key, value: Value(intValue: String(value)))
        }
        static func double(_ key: String, _ value: Double) -> Attribute {
            Attribute(key: key, value: Value(doubleValue: value))
        }
        static func bool(_ key: String, _ value: Bool) -> Attribute {
            Attribute(key: key, value: Value(boolValue: value))
        }
    }

    /// An attribute's value: one of its members is set.
    public struct Value: Codable, Sendable {
        public var stringValue: String?
        /// A 64-bit integer, as a string.
        public var intValue: String?
        public var doubleValue: Double?
        public var boolValue: Bool?
    }
}
