extension BenchVariant {
    /// A variant whose work is async (the PostgreSQL entries), run by the
    /// synchronous harness through ``BlockingAwait``: one task per sample,
    /// which runs all of the sample's iterations, so that the harness's
    /// method (calibration, interleaved rounds, per-round ratios) is
    /// unchanged and the hand-over costs every variant the same.
    ///
    /// - Parameters:
    ///   - name: The variant's name in the report and the JSON.
    ///   - operationsPerIteration: How many operations one iteration makes.
    ///   - prepare: Untimed work before each sample.
    ///   - body: Runs the given number of iterations; this is what is timed.
    static func async(
        name: String,
        operationsPerIteration: Int = 1,
        prepare: (@Sendable () async throws -> Void)? = nil,
        body: @escaping @Sendable (_ iterations: Int) async throws -> Void
    ) -> BenchVariant {
        BenchVariant(
            name: name,
            operationsPerIteration: operationsPerIteration,
            prepare: {
                if let prepare { try BlockingAwait.run(prepare) }
            },
            body: { iterations in
                try BlockingAwait.run { try await body(iterations) }
            })
    }
}
