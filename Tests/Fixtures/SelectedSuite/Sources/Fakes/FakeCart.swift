import Cart

/// A cart with the given prices, for tests.
public func fakeCart(_ prices: Int...) -> Cart {
    var cart = Cart()
    for price in prices { cart.add(price) }
    return cart
}
