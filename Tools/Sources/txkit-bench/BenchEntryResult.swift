/// The samples of one entry, with their summary statistics.
struct BenchEntryResult {
    let name: String
    let unit: String
    let note: String
    let variants: [BenchVariantResult]
    let ratios: [(String, String)]

    /// A ratio between two variants, computed round by round (samples of the
    /// same round were taken close together), then summarized.
    func ratio(_ numerator: String, _ denominator: String) -> BenchStatistics? {
        guard let top = variants.first(where: { $0.name == numerator }),
              let bottom = variants.first(where: { $0.name == denominator }),
              top.samples.count == bottom.samples.count, !top.samples.isEmpty
        else { return nil }
        return BenchStatistics(zip(top.samples, bottom.samples).map { $0 / $1 })
    }
}

/// The samples of one variant, in nanoseconds per operation.
struct BenchVariantResult {
    let name: String
    let samples: [Double]
    var statistics: BenchStatistics { BenchStatistics(samples) }
}

/// Median, quartiles, minimum and maximum of a set of samples.
struct BenchStatistics {
    let median: Double
    /// The first and third quartiles (nearest-rank): half the samples lie
    /// between them, a steadier measure of spread than min–max on a busy
    /// machine.
    let lowerQuartile: Double
    let upperQuartile: Double
    let min: Double
    let max: Double
    let count: Int

    init(_ samples: [Double]) {
        precondition(!samples.isEmpty, "no samples")
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        lowerQuartile = sorted[(sorted.count - 1) / 4]
        upperQuartile = sorted[(3 * (sorted.count - 1) + 3) / 4]
        min = sorted[0]
        max = sorted[sorted.count - 1]
        count = sorted.count
    }
}
