import Foundation
import LedgerImport
import Testing

/// ``TAPImporter/looksLikeTAP(prefix:)`` on the first bytes of inputs.
struct TAPDetectionTests {
    @Test(arguments: [
        "TAP version 14\n1..2\n",
        "\u{FEFF}TAP Version 13\n",
        "1..4\nok 1 - a\n",
        "\n\n# comment first\nok 1 - a\n",
        "not ok 1 - a\n",
        "ok - a\n",
        "ok\n",
        "Bail out! no database\n",
        "t/basic.t .. \n1..1\nok 1\n",
        "    # Subtest: child first\n    ok 1 - a\n",
        "service running on port 3003\n1..3\nnot ok 1  Uncaught error outside test suite\n",
        "Listening on :8080\nTAP version 13\nok 1 - a\n",
    ])
    func recognisesTheWaysTAPStarts(text: String) {
        #expect(TAPImporter.looksLikeTAP(prefix: Data(text.utf8)))
    }

    @Test(arguments: [
        "", "\n\n", "{\"v\":1,\"type\":\"run.start\"}\n", "<?xml version=\"1.0\"?><testsuites/>",
        "okay, so this is prose\n", "ok google\n", "Test Suite 'All tests' started\n", "# only a comment\n",
        "some output\nok 1 - a\nok 2 - b\n", "some output\nBail out! no database\n",
    ])
    func rejectsWhatIsNotTAP(text: String) {
        #expect(!TAPImporter.looksLikeTAP(prefix: Data(text.utf8)))
    }
}
