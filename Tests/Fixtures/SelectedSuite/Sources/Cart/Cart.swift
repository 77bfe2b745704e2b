/// A shopping cart: prices in cents.
public struct Cart {
    public private(set) var prices: [Int] = []

    public init() {}

    public mutating func add(_ price: Int) {
        prices.append(price)
    }

    public var total: Int { prices.reduce(0, +) }

    public var isEmpty: Bool { prices.count == 0 }
}
