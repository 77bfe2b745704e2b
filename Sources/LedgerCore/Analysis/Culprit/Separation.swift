import Foundation

/// How well a feature tells failing attempts from passing ones, and how unlikely that is by chance.
struct Separation: Hashable {
    /// Failing attempts with the feature, of those where it could be seen.
    var failing: CulpritReport.Share
    /// Passing attempts with the feature, of those where it could be seen.
    var passing: CulpritReport.Share
    /// The chance of a split at least this lopsided if the feature had nothing to do with failing
    /// (one-sided), already multiplied by the number of thresholds tried for a measure.
    var p: Double
    /// For a measure: the least value that counts as having the feature.
    var threshold: Double?

    /// The failing share less the passing share: 1 when the feature is in every failing attempt
    /// and in no passing one.
    var score: Double { failing.share - passing.share }

    /// Of the attempts with the feature, the share that failed.
    var precision: Double {
        let with = failing.count + passing.count
        return with == 0 ? 0 : Double(failing.count) / Double(with)
    }

    /// A feature that an attempt has or has not, tested with Fisher's exact test.
    /// - Parameter counts: the failing and passing attempts that could show it, and those with it.
    /// - Returns: the shares of failing and passing attempts with the feature, and the chance of that
    ///   split; no threshold.
    static func presence(_ counts: CulpritFeatures.Counts) -> Separation {
        Separation(
            failing: .init(count: counts.failingWith, of: counts.failingSeen),
            passing: .init(count: counts.passingWith, of: counts.passingSeen),
            p: fisherRightTail(
                failingWith: counts.failingWith, failing: counts.failingSeen, passingWith: counts.passingWith,
                passing: counts.passingSeen),
            threshold: nil)
    }

    /// A measure where failing attempts may stand higher (a step's time, a check's wait): every
    /// failing value is tried as a threshold, the most lopsided split is kept, and its chance is
    /// multiplied by the number of thresholds tried so that trying many is no advantage.
    /// - Parameters:
    ///   - failing: the measure in each failing attempt where it was seen.
    ///   - passing: the measure in each passing attempt where it was seen.
    /// - Returns: `nil` when either side has no value.
    static func higher(failing: [Double], passing: [Double]) -> Separation? {
        guard !failing.isEmpty, !passing.isEmpty else { return nil }
        let thresholds = Set(failing).sorted()
        let sortedPassing = passing.sorted()
        var best: Separation?
        for threshold in thresholds {
            let failingWith = failing.count(where: { $0 >= threshold })
            let passingWith = sortedPassing.count - lowerBound(sortedPassing, threshold)
            let candidate = Separation(
                failing: .init(count: failingWith, of: failing.count),
                passing: .init(count: passingWith, of: passing.count),
                p: fisherRightTail(
                    failingWith: failingWith, failing: failing.count, passingWith: passingWith, passing: passing.count),
                threshold: threshold)
            if let current = best, (current.p, -current.score) <= (candidate.p, -candidate.score) { continue }
            best = candidate
        }
        guard var best else { return nil }
        best.p = min(1, best.p * Double(thresholds.count))
        return best
    }

    /// The chance, with `failing + passing` attempts of which `failingWith + passingWith` have a
    /// feature, that `failing` attempts drawn at random hold `failingWith` or more of them: the
    /// one-sided p-value of Fisher's exact test.
    static func fisherRightTail(failingWith: Int, failing: Int, passingWith: Int, passing: Int) -> Double {
        let total = failing + passing
        let with = failingWith + passingWith
        guard total > 0, with > 0 else { return 1 }
        let most = min(with, failing)
        guard failingWith <= most else { return 0 }
        func logChoose(_ n: Int, _ k: Int) -> Double {
            lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1))
        }
        let denominator = logChoose(total, failing)
        var p = 0.0
        for drawn in failingWith...most where failing - drawn <= total - with {
            p += exp(logChoose(with, drawn) + logChoose(total - with, failing - drawn) - denominator)
        }
        return min(1, p)
    }

    private static func lowerBound(_ sorted: [Double], _ value: Double) -> Int {
        var (low, high) = (0, sorted.count)
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
