/// The small measuring loop behind `txkit-bench`.
///
/// Why a harness of our own rather than ordo-one's package-benchmark: the
/// point of every entry is a *ratio* between variants (SQLiteDB ÷ GRDB), and
/// on a shared, noisy machine a ratio is only fair when its variants are
/// measured in the same rounds, close together in time. This harness
/// interleaves them: each round takes one sample of every variant, in an order
/// that rotates from round to round, so that a burst of load from another
/// process lands on all variants alike. It also writes the JSON contract of
/// `--json` directly, and it needs no extra dependency (package-benchmark
/// runs each benchmark to the end before starting the next one, and its
/// malloc interposer sits in every allocation, which is part of what these
/// entries measure).
///
/// Method, for each entry:
/// 1. Calibration, which is also the warm-up: each variant runs with 1, 2, 4…
///    iterations until one sample takes a quarter of the target sample time;
///    the iteration count is then scaled so that one sample lasts about the
///    target time (at least one iteration).
/// 2. One more untimed warm-up round at the calibrated count.
/// 3. `rounds` rounds; each runs every variant's untimed `prepare` then one
///    timed sample. A sample's value is its elapsed time divided by its
///    number of operations.
/// 4. The report gives, per variant, the median, min and max of the samples,
///    and, per ratio, the median, min and max of the per-round ratios.
///
/// Never use these timings as pass/fail tests: they are for reading.
struct BenchHarness {
    /// How long one sample should last.
    var sampleTarget: Duration
    /// How many timed samples each variant gets.
    var rounds: Int

    /// The settings of `--quick` (a smoke run) and of a full run.
    static func make(quick: Bool) -> BenchHarness {
        quick
            ? BenchHarness(sampleTarget: .milliseconds(4), rounds: 5)
            : BenchHarness(sampleTarget: .milliseconds(10), rounds: 61)
    }

    /// Measures every variant of `entry`, interleaved.
    func measure(_ entry: BenchEntry) throws -> BenchEntryResult {
        var iterations: [Int] = []
        for variant in entry.variants {
            iterations.append(try calibrate(variant))
        }
        for (variant, count) in zip(entry.variants, iterations) {
            _ = try sample(variant, iterations: count)
        }
        var samples = Array(repeating: [Double](), count: entry.variants.count)
        for round in 0..<rounds {
            for offset in 0..<entry.variants.count {
                let index = (round + offset) % entry.variants.count
                samples[index].append(try sample(entry.variants[index], iterations: iterations[index]))
            }
        }
        return BenchEntryResult(
            name: entry.name,
            unit: entry.unit,
            note: entry.note,
            variants: zip(entry.variants, samples).map { BenchVariantResult(name: $0.name, samples: $1) },
            ratios: entry.ratios)
    }

    private func calibrate(_ variant: BenchVariant) throws -> Int {
        let target = Self.nanoseconds(sampleTarget)
        var count = 1
        while true {
            try variant.prepare()
            let elapsed = try Self.time { try variant.body(count) }
            if elapsed >= target / 4 || count >= 1 << 30 {
                return max(1, Int((Double(count) * target / max(elapsed, 1)).rounded()))
            }
            count *= 2
        }
    }

    private func sample(_ variant: BenchVariant, iterations: Int) throws -> Double {
        try variant.prepare()
        let elapsed = try Self.time { try variant.body(iterations) }
        return elapsed / Double(iterations * variant.operationsPerIteration)
    }

    private static func time(_ body: () throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        return nanoseconds(start.duration(to: clock.now))
    }

    static func nanoseconds(_ duration: Duration) -> Double {
        let components = duration.components
        return Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
    }
}
