import Foundation
import LedgerCore

/// Records a test suite into the ledger: the test library's entry point.
///
/// Adding the `TestLedger` product to a test target is enough: its XCTest observer registers
/// itself when the test binary loads. `TESTLEDGER_DISABLE=1` turns it off; ``start()`` registers
/// it by hand where the binary loads differently. Activities, captures and `eventually`
/// predicates are recorded against the test that calls them, XCTest or Swift Testing.
public enum TestLedger {
    /// Registers the XCTest observer; calling it again does nothing.
    public static func start() {
        Registration.registerObserver()
    }

    /// Whether recording is turned on (`TESTLEDGER_DISABLE` is not `1`).
    public static var isEnabled: Bool {
        !LedgerEnvironment().isDisabled
    }
}

/// A layer of the test pyramid: `unit`, `integration` or `ui`.
public typealias Layer = LedgerCore.Layer

/// A captured value: a string, number, boolean, null, array or dictionary literal.
public typealias CaptureValue = LedgerCore.JSONValue

/// Declares an XCTest case class's layer of the pyramid.
///
/// ```swift
/// final class CheckoutUITests: XCTestCase, LayeredTest {
///     static var ledgerLayer: Layer { .ui }
/// }
/// ```
public protocol LayeredTest {
    /// The layer of every test in the class; it wins over rules and naming.
    static var ledgerLayer: Layer { get }
}
