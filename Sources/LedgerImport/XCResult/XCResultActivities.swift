/// What `xcrun xcresulttool get test-results activities --test-id ID` writes (Xcode 16 and later):
/// one test's runs (one per device, configuration, arguments and repetition), each with its
/// activity tree. Start times are seconds since 1970; activities have no end.
struct XCResultActivities: Decodable {
    var testIdentifier: String?
    var testRuns: [Run]

    struct Run: Decodable {
        var device: XCResultDocument.Device?
        var arguments: [Argument]?
        var activities: [Node]?

        /// The run's arguments as one text, as the `Arguments` node of the tests document names them.
        var argumentText: String? {
            guard let arguments, !arguments.isEmpty else { return nil }
            return arguments.compactMap(\.value).joined(separator: ", ")
        }
    }

    struct Argument: Decodable {
        var value: String?
    }

    struct Node: Decodable {
        var title: String
        var startTime: Double?
        var attachments: [Attachment]?
        var childActivities: [Node]?
        var isAssociatedWithFailure: Bool?
    }

    struct Attachment: Decodable {
        /// `Launch Screen_0_53E1C67A-8428-403B-A173-57C38BE9DA8B.png`: the name, an index, a UUID.
        var name: String
        var uuid: String?
        var timestamp: Double?
    }
}

extension XCResultActivities.Node {
    /// The earliest start time in the tree.
    var earliestStart: Double? {
        ([startTime].compactMap { $0 } + (childActivities ?? []).compactMap(\.earliestStart)).min()
    }
}
