import Foundation

extension BenchCommand {
    /// The command that runs the PostgreSQL entries against a throwaway
    /// server, for the report when no server is given.
    static let postgresCommand =
        "Scripts/with-postgres.sh swift run -c release --package-path Tools txkit-bench --only "
        + PostgresBenchmarks.entryNames.joined(separator: ",")

    /// Measures the wanted PostgreSQL entries on the server of
    /// `TXKIT_POSTGRES_URL`, after the SQLite ones.
    ///
    /// - Returns: The results, and a line for the report: the server and
    ///   settings, or, without `TXKIT_POSTGRES_URL`, which entries were
    ///   skipped and how to run them. `nil` when no PostgreSQL entry is
    ///   wanted.
    func measurePostgres(
        harness: BenchHarness, wanted: (String) -> Bool
    ) throws -> (results: [BenchEntryResult], summary: String)? {
        let names = PostgresBenchmarks.entryNames.filter(wanted)
        guard !names.isEmpty else { return nil }
        guard let url = ProcessInfo.processInfo.environment[PostgresBenchTargets.environmentKey], !url.isEmpty else {
            let summary = "skipped \(names.joined(separator: ", ")): \(PostgresBenchTargets.environmentKey) is not set; "
                + "run them with `\(Self.postgresCommand)`"
            print(summary)
            return ([], summary)
        }
        let targets = try BlockingAwait.run { try await PostgresBenchTargets.open(url: url) }
        var results: [BenchEntryResult] = []
        do {
            for entry in PostgresBenchmarks(targets: targets).all where wanted(entry.name) {
                results.append(try harness.measure(entry))
                print("measured \(entry.name)")
            }
            if wanted(PostgresFreshDatabaseBenchmark.entryName) {
                results.append(try harness.measure(try PostgresFreshDatabaseBenchmark(url: url).entry()))
                print("measured \(PostgresFreshDatabaseBenchmark.entryName)")
            }
            if wanted(PostgresThroughputBenchmark.entryName) {
                let throughput = PostgresThroughputBenchmark(
                    targets: targets, rounds: quick ? 2 : 15, window: quick ? .milliseconds(100) : .milliseconds(250))
                results.append(try throughput.run())
                print("measured \(PostgresThroughputBenchmark.entryName)")
            }
        } catch {
            try? BlockingAwait.run { await targets.close() }
            throw error
        }
        try BlockingAwait.run { await targets.close() }
        let summary = "\(targets.address) (this run's tables \(targets.tablePrefix)_*, dropped), "
            + "one pool of \(PostgresBenchTargets.poolSize) connections per variant"
        return (results, summary)
    }
}
