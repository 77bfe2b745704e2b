import Foundation
import LedgerImport
import Testing

/// ``XCResultImporter/looksLikeXCResult(prefix:)`` and the localized durations.
struct XCResultDetectionTests {
    @Test(arguments: [
        "{\n  \"devices\" : [\n    {\n      \"architecture\" : \"arm64\",\n      \"deviceId\" : \"1D56\"",
        #"{"testNodes":[{"name":"Plan","nodeType":"Test Plan"}]}"#,
        #"{"testPlanConfigurations":[{"configurationId":"1","configurationName":"A"}],"testNodes":[]}"#,
    ])
    func recognisesXcresulttoolOutput(text: String) {
        #expect(XCResultImporter.looksLikeXCResult(prefix: Data(text.utf8)))
    }

    @Test(arguments: [
        "", #"{"devices":"none"}"#, #"{"version":"3.13.0","examples":[]}"#, #"{"v":1,"type":"run.start"}"#,
        "TAP version 14\n",
    ])
    func rejectsOtherInputs(text: String) {
        #expect(!XCResultImporter.looksLikeXCResult(prefix: Data(text.utf8)))
    }
}
