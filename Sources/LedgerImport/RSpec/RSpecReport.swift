/// The document `rspec --format json` writes, as far as the importer reads it.
struct RSpecReport: Decodable {
    var version: String?
    /// Notices and the text of errors outside examples (load errors).
    var messages: [String]?
    var examples: [RSpecExample]
    var summary: Summary?

    /// The run's totals.
    struct Summary: Decodable {
        /// The run's wall-clock time, in seconds.
        var duration: Double?
        var errorsOutsideOfExamplesCount: Int?

        enum CodingKeys: String, CodingKey {
            case duration
            case errorsOutsideOfExamplesCount = "errors_outside_of_examples_count"
        }
    }
}

/// One example (`it`) of an RSpec JSON report.
struct RSpecExample: Decodable {
    /// The scoped id, `./spec/a_spec.rb[1:2:1]`.
    var id: String?
    var description: String?
    /// The example groups' descriptions and the example's, joined by spaces.
    var fullDescription: String?
    /// `passed`, `failed` or `pending`.
    var status: String?
    var filePath: String?
    var lineNumber: Int?
    /// Seconds.
    var runTime: Double?
    var pendingMessage: String?
    var exception: Exception?

    /// What a failed example raised.
    struct Exception: Decodable {
        var className: String?
        var message: String?
        var backtrace: [String]?

        enum CodingKeys: String, CodingKey {
            case className = "class"
            case message, backtrace
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, description, status, exception
        case fullDescription = "full_description"
        case filePath = "file_path"
        case lineNumber = "line_number"
        case runTime = "run_time"
        case pendingMessage = "pending_message"
    }
}
