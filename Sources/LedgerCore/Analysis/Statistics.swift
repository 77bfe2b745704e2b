/// Small order statistics over plain arrays.
public enum Statistics {
    /// The median, `0` for no values.
    ///
    /// - Parameter values: the values, in any order.
    /// - Returns: the 0.5-quantile, interpolated between the middle two for an even count.
    public static func median(_ values: [Double]) -> Double {
        percentile(values, 0.5)
    }

    /// The `p`-quantile (0…1) with linear interpolation, `0` for no values.
    ///
    /// - Parameters:
    ///   - values: the values, in any order.
    ///   - p: the quantile, from 0 (the smallest value) to 1 (the largest); it must lie in 0…1.
    /// - Returns: the value at position `p × (count − 1)` of the sorted values.
    public static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let position = p * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }
}
