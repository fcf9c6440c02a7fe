/// One benchmark: a name from the `--json` contract and the variants that
/// are measured side by side.
struct BenchEntry {
    /// The entry's name in the report and the JSON (`empty_read_tx`, …).
    let name: String
    /// The unit of every value (`ns/op`).
    var unit = "ns/op"
    /// What one operation is, and how each variant does it.
    let note: String
    /// The variants, measured interleaved in the same rounds.
    let variants: [BenchVariant]
    /// The ratios to report, as (numerator, denominator) variant names.
    var ratios: [(String, String)] = []
}

/// One way of doing an entry's operation.
struct BenchVariant {
    /// The variant's name in the report and the JSON (`sqlite_c`, `grdb`, …).
    let name: String
    /// How many of the entry's operations one iteration performs (10,000
    /// for the rows of `insert_10k_one_tx`, 1 elsewhere).
    var operationsPerIteration = 1
    /// Untimed work before each sample (emptying a table, for example).
    var prepare: () throws -> Void = {}
    /// Runs the given number of iterations; this is what is timed.
    let body: (_ iterations: Int) throws -> Void
}

/// The work of a benchmark did not give the expected result: the numbers
/// would be meaningless, so the run stops.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
