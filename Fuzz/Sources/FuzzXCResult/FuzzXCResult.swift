import Foundation
import FuzzSupport
import LedgerImport

/// A tests document with one test case, whose activities the input stands for.
let tests = Data(
    (#"{"testNodes": [{"nodeType": "UI test bundle", "name": "AppUITests", "children": [{"nodeType": "Test Case", "#
        + #""name": "t()", "nodeIdentifier": "S/t()", "result": "Failed", "durationInSeconds": 2}]}]}"#).utf8)

@_cdecl("fuzzXCResult") public func fuzzOne(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    // The input as `get test-results tests` JSON, and as one test's `activities` JSON.
    fuzz(XCResultImporter(), bytes, count)
    let activities = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    let importer = XCResultImporter(bundle: XCResultBundleDetails(activities: ["S/t()": activities]))
    tests.withUnsafeBytes { raw in
        fuzz(importer, raw.bindMemory(to: UInt8.self).baseAddress, raw.count)
    }
    return 0
}

@_cdecl("FuzzXCResult_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { fuzzOne($0, $1) }
}
