import Foundation
import XCTest

/// Adds the observer to XCTest once. Called by the C loader when the binary loads, so it must
/// print nothing and open nothing: `swift test --list-tests` and `--parallel` read stdout.
enum Registration {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var registered = false

    static func registerObserver() {
        guard TestLedger.isEnabled else { return }
        lock.withLock {
            guard !registered else { return }
            registered = true
            XCTestObservationCenter.shared.addTestObserver(LedgerObserver(recorder: .shared))
        }
    }
}

@_cdecl("testledger_register_observer")
func testledgerRegisterObserver() {
    Registration.registerObserver()
}
