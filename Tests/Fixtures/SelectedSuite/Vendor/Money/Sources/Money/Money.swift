/// Amounts in cents.
public enum Money {
    /// `cents` rounded up to the next multiple of 5.
    public static func rounded(_ cents: Int) -> Int {
        (cents + 4) / 5 * 5
    }
}
