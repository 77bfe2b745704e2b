import Foundation
import LedgerImport
import Testing

/// ``RSpecImporter/looksLikeRSpec(prefix:)`` on the first bytes of inputs.
struct RSpecDetectionTests {
    @Test(arguments: [
        #"{"version":"3.13.0","examples":[]}"#,
        #"{"version":"3.12.2","messages":["Run options: include {:focus=>true}"],"seed":4242,"examples":["#,
        "\u{FEFF}{\n  \"version\": \"3.13.0\",\n  \"examples\": [\n",
        #"{"version":"3.13.0","summary":{"duration":0.1}}"#,
    ])
    func recognisesRSpecReports(text: String) {
        #expect(RSpecImporter.looksLikeRSpec(prefix: Data(text.utf8)))
    }

    @Test(arguments: [
        "", #"{"v":1,"type":"run.start","run":"x"}"#, #"{"version":0,"kind":"test"}"#,
        #"{"devices":[],"testNodes":[]}"#, "<testsuites/>", "TAP version 14", #"{"version":"3.13.0","kind":"x"}"#,
    ])
    func rejectsOtherInputs(text: String) {
        #expect(!RSpecImporter.looksLikeRSpec(prefix: Data(text.utf8)))
    }
}
