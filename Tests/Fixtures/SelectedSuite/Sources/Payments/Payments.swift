import Cart
import Money

/// Charges a cart.
public struct Payments {
    public init() {}

    /// What the card is charged for the cart, in cents: nothing for an empty cart.
    public func charge(_ cart: Cart) -> Int {
        guard !cart.isEmpty else { return 0 }
        return Money.rounded(cart.total)
    }

    /// Whether a charge needs the customer to confirm it.
    public func needsConfirmation(_ amount: Int) -> Bool {
        amount > 10_000
    }
}
