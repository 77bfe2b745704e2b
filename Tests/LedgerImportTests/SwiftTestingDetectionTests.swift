import Foundation
import LedgerImport
import Testing

/// Recognising a Swift Testing event stream from its first line.
@Suite struct SwiftTestingDetectionTests {
    static let lines: [(String, Bool)] = [
        (
            #"{"kind":"test","payload":{"id":"M.f()/F.swift:1:1","kind":"function","name":"f()"},"version":"6.3.0"}"#,
            true
        ),
        (#"{"kind":"event","payload":{"kind":"runStarted"},"version":0}"#, true),
        (#"{"version":"6.4.0","kind":"event","payload":{}}"#, true),
        (#"{"kind":"event","payload":{},"version":"6.3"}"#, false),
        (#"{"kind":"metrics","payload":{},"version":0}"#, false),
        (#"{"kind":"event","payload":[],"version":0}"#, false),
        (#"{"kind":"event","version":0}"#, false),
        (#"{"v":1,"type":"run.start","run":"5A1E5B0E-0000-4000-8000-000000000001","at":1}"#, false),
        (#"<?xml version="1.0"?><testsuites/>"#, false),
        ("TAP version 13", false),
        ("", false),
    ]

    @Test(arguments: lines)
    func recognisesRecordsWithVersionKindAndPayload(line: (String, Bool)) {
        #expect(SwiftTestingImporter.looksLikeSwiftTesting(firstLine: Data(line.0.utf8)) == line.1)
    }
}
