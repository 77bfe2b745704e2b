import Foundation
import LedgerCore
import XCTest

/// Watches XCTest and tells the recorder what each test case did.
final class LedgerObserver: NSObject, XCTestObservation, @unchecked Sendable {
    private let recorder: Recorder
    private var started: [ObjectIdentifier: Double] = [:]
    /// Suite name and layer per test case class: reflecting on the type every test costs.
    private var classes: [ObjectIdentifier: (suite: String, layer: Layer?)] = [:]

    init(recorder: Recorder) {
        self.recorder = recorder
    }

    func testCaseWillStart(_ testCase: XCTestCase) {
        let now = Date().timeIntervalSince1970
        started[ObjectIdentifier(testCase)] = now
        recorder.xctestWillStart(context(of: testCase), at: now)
    }

    func testCase(
        _ testCase: XCTestCase, didFailWithDescription description: String, inFile filePath: String?,
        atLine lineNumber: Int
    ) {
        var message = description
        if message.hasSuffix(" - ") { message.removeLast(3) }
        recorder.xctestFailed(
            message: message, file: filePath, line: filePath == nil ? nil : lineNumber,
            at: Date().timeIntervalSince1970)
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        let now = Date().timeIntervalSince1970
        let start = started.removeValue(forKey: ObjectIdentifier(testCase)) ?? now
        let run = testCase.testRun
        let outcome: Outcome
        if run?.hasBeenSkipped == true {
            outcome = .skipped
        } else if (run?.totalFailureCount ?? 0) > 0 {
            outcome = .failed
        } else {
            outcome = .passed
        }
        recorder.xctestDidFinish(
            outcome: outcome, duration: run?.totalDuration ?? now - start, message: nil, at: now)
    }

    func testBundleDidFinish(_ testBundle: Bundle) {
        recorder.bundleDidFinish(at: Date().timeIntervalSince1970)
    }

    /// `Module.Class/testMethod`, as `swift test list` and the xUnit file name the test.
    func context(of testCase: XCTestCase) -> TestContext {
        let type = type(of: testCase)
        let about =
            classes[ObjectIdentifier(type)]
            ?? (String(reflecting: type), (type as? any LayeredTest.Type)?.ledgerLayer)
        classes[ObjectIdentifier(type)] = about
        let name = Self.methodName(testCase.name)
        return TestContext(
            library: .xctest, test: about.suite + "/" + name, attempt: 1, suite: about.suite, name: name,
            layer: about.layer)
    }

    /// `Class.testX` (Linux) or `-[Module.Class testX]` (Apple) → `testX`.
    /// Searches bytes, not characters: this runs for every test.
    static func methodName(_ name: String) -> String {
        let bytes = name.utf8
        if name.hasPrefix("-["), name.hasSuffix("]"), let space = bytes.lastIndex(of: UInt8(ascii: " ")) {
            return String(name[bytes.index(after: space)..<bytes.index(before: bytes.endIndex)])
        }
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")) else { return name }
        return String(name[bytes.index(after: dot)...])
    }
}
