import Demo
import TestLedger

/// A page object for the checkout screen: what a person sees and does, not how it is built.
struct CheckoutPage {
    let model: CheckoutModel

    var spinner: UIPredicate { UIPredicate("checkout spinner shown") { [model] in model.isSpinning } }

    func total(is expected: Int) -> UIPredicate {
        UIPredicate("checkout total is \(expected)") { [model] in model.shownTotal == expected }
    }

    func add(price: Int) {
        TestLedger.activity("Add an item for \(price)") { model.add(price: price) }
    }
}
