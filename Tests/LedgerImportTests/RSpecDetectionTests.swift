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
        #"{"examples":[{"description":"works","full_description":"A works","status":"passed"#,
        "{\n  \"examples\": [\n    {\n      \"id\": \"./spec/a_spec.rb[1:1]\",",
        #"{"examples":[],"summary":{"duration":0.1,"example_count":0}}"#,
    ])
    func recognisesRSpecReports(text: String) {
        #expect(RSpecImporter.looksLikeRSpec(prefix: Data(text.utf8)))
    }

    @Test(arguments: [
        "", #"{"v":1,"type":"run.start","run":"x"}"#, #"{"version":0,"kind":"test"}"#,
        #"{"devices":[],"testNodes":[]}"#, "<testsuites/>", "TAP version 14", #"{"version":"3.13.0","kind":"x"}"#,
        #"{"examples":[1,2]}"#, #"{"examples":{}}"#, #"{"examples":[{"name":"x"}]}"#, #"{"examples":[],"other":1}"#,
    ])
    func rejectsOtherInputs(text: String) {
        #expect(!RSpecImporter.looksLikeRSpec(prefix: Data(text.utf8)))
    }
}
