/// A shopping cart: prices in cents, a discount code, a total.
public struct Cart: Sendable {
    public private(set) var lines: [String: (price: Int, quantity: Int)] = [:]
    public var discountPercent = 0

    public init() {}

    public mutating func add(_ item: String, price: Int, quantity: Int = 1) {
        let current = lines[item]?.quantity ?? 0
        lines[item] = (price, current + quantity)
    }

    public mutating func remove(_ item: String) {
        lines[item] = nil
    }

    public var total: Int {
        let gross = lines.values.reduce(0) { $0 + $1.price * $1.quantity }
        return gross - gross * discountPercent / 100
    }
}
