/// A Common Test Report Format (CTRF) report, as far as the importer reads it: the current
/// schema and the older one reporters still write (`suite` as one string, `retry` and `flake`).
struct CTRFReport: Decodable {
    var results: Results

    struct Results: Decodable {
        var tool: Tool
        var summary: Summary?
        var tests: [CTRFTest]
    }

    struct Tool: Decodable {
        var name: String
    }

    struct Summary: Decodable {
        /// The run's start and end, in milliseconds since 1970 (some reporters write seconds).
        var start: Double?
        var stop: Double?
    }
}

/// One test of a CTRF report: its final attempt, and the attempts before it.
struct CTRFTest: Decodable {
    var name: String
    /// `passed`, `failed`, `skipped`, `pending` or `other`.
    var status: String
    /// Milliseconds.
    var duration: Double?
    /// The suites it is in, outermost first.
    var suite: [String]
    var message: String?
    var trace: String?
    var filePath: String?
    var line: Int?
    /// How many times it ran again after its first attempt.
    var retries: Int
    var flaky: Bool?
    /// The attempts before the final one, in order; empty when the reporter gave only a count.
    var retryAttempts: [Attempt]
    var start: Double?
    var stop: Double?

    struct Attempt: Decodable {
        var attempt: Int?
        var status: String
        var duration: Double?
        var message: String?
        var trace: String?
        var line: Int?
        var start: Double?
    }

    enum CodingKeys: String, CodingKey {
        case name, status, duration, suite, message, trace, filePath, line, retries, retry, flaky, flake,
            retryAttempts, start, stop
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        status = try container.decode(String.self, forKey: .status)
        duration = try container.decodeIfPresent(Double.self, forKey: .duration)
        if let path = try? container.decodeIfPresent([String].self, forKey: .suite) {
            suite = path
        } else {
            let joined = try container.decodeIfPresent(String.self, forKey: .suite)
            suite = joined.map { $0.components(separatedBy: " > ") } ?? []
        }
        message = try container.decodeIfPresent(String.self, forKey: .message)
        trace = try container.decodeIfPresent(String.self, forKey: .trace)
        filePath = try container.decodeIfPresent(String.self, forKey: .filePath)
        line = try container.decodeIfPresent(Int.self, forKey: .line)
        retries =
            try container.decodeIfPresent(Int.self, forKey: .retries)
            ?? container.decodeIfPresent(Int.self, forKey: .retry) ?? 0
        flaky =
            try container.decodeIfPresent(Bool.self, forKey: .flaky)
            ?? container.decodeIfPresent(Bool.self, forKey: .flake)
        retryAttempts = try container.decodeIfPresent([Attempt].self, forKey: .retryAttempts) ?? []
        start = try container.decodeIfPresent(Double.self, forKey: .start)
        stop = try container.decodeIfPresent(Double.self, forKey: .stop)
    }
}
