import Logging
import PostgresNIO
import TransactionKit
import TransactionKitPostgres

/// `pg_write_throughput`: committed write transactions per second with 1, 4
/// and 16 concurrent tasks, `PostgresDB` side by side with plain
/// postgres-nio.
///
/// One transaction is `UPDATE counter_<task> SET n = n + 1 WHERE id = 1`,
/// each task on a table of its own (so tasks never wait for one another's
/// locks, and `SERIALIZABLE` finds nothing to refuse), committed; the commit
/// flushes the server's write-ahead log, as any real write does. The
/// variants are those of ``PostgresBenchmarks`` (`postgres_nio`,
/// `postgresdb`, `postgresdb_serializable`), named `<variant>_<N>t`.
///
/// One sample is one window of ``window``: N tasks run transactions one
/// after another until the window ends; the sample is the transactions
/// committed divided by the time until the last task finished. The harness
/// thread waits for the whole window (``BlockingAwait``), once. After one
/// untimed warm-up window per variant and task count (which also opens the
/// pools' connections), the rounds interleave the variants in a rotating
/// order, as ``BenchHarness`` does.
struct PostgresThroughputBenchmark {
    static let entryName = "pg_write_throughput"

    let targets: PostgresBenchTargets
    let rounds: Int
    let window: Duration

    private static let taskCounts = [1, 4, 16]
    private static let variants = ["postgres_nio", "postgresdb", "postgresdb_serializable"]

    func run() throws -> BenchEntryResult {
        precondition(Self.taskCounts.allSatisfy { $0 <= PostgresBenchTargets.poolSize })
        for tasks in Self.taskCounts {
            for variant in Self.variants {
                _ = try measure(variant, tasks: tasks, window: .milliseconds(100))
            }
        }
        var samples: [String: [Double]] = [:]
        for round in 0..<rounds {
            for tasks in Self.taskCounts {
                for offset in 0..<Self.variants.count {
                    let variant = Self.variants[(round + offset) % Self.variants.count]
                    samples["\(variant)_\(tasks)t", default: []].append(try measure(variant, tasks: tasks, window: window))
                }
            }
        }
        let names = Self.taskCounts.flatMap { tasks in Self.variants.map { "\($0)_\(tasks)t" } }
        let ratios = Self.taskCounts.flatMap { tasks in
            [("postgresdb_\(tasks)t", "postgres_nio_\(tasks)t"), ("postgresdb_serializable_\(tasks)t", "postgres_nio_\(tasks)t")]
        }
        return BenchEntryResult(
            name: Self.entryName,
            unit: "tx/s",
            note: "committed write transactions per second, N concurrent tasks (N = 1, 4, 16; pools of \(PostgresBenchTargets.poolSize) connections), each transaction one UPDATE of the one row of the task's own table, \(window) windows; higher is better, a ratio under 1 is PostgresDB's cost",
            variants: names.map { BenchVariantResult(name: $0, samples: samples[$0]!) },
            ratios: ratios)
    }

    /// One window of `tasks` concurrent tasks of `variant`: transactions per
    /// second.
    private func measure(_ variant: String, tasks: Int, window: Duration) throws -> Double {
        let transaction = self.transaction(variant)
        return try BlockingAwait.run {
            try await Self.window(tasks: tasks, duration: window, transaction: transaction)
        }
    }

    /// One committed write of `variant`, by the task numbered `task`.
    private func transaction(_ variant: String) -> @Sendable (_ task: Int) async throws -> Void {
        let logger = targets.logger, targets = targets
        switch variant {
        case "postgres_nio":
            let client = targets.client
            return { task in
                let table = targets.counterTable(task)
                try await client.withTransaction(logger: logger) { connection in
                    try await Self.increment(connection, table: table, logger: logger)
                }
            }
        default:
            let db: any AsyncDB = variant == "postgresdb" ? targets.readCommittedDB : targets.serializableDB
            return { task in
                let table = targets.counterTable(task)
                try await db.write { tx in
                    try await Self.increment(PostgresDB.shimOnlyBridge(tx), table: table, logger: logger)
                }
            }
        }
    }

    private static func increment(_ connection: some PostgresBenchQuerying, table: String, logger: Logger) async throws {
        _ = try await connection.benchQuery(
            "UPDATE \(unescaped: table) SET n = n + 1 WHERE id = \(rowID)", logger: logger)
    }

    /// The id of each counter table's row.
    private static let rowID: Int32 = 1

    private static func window(
        tasks: Int, duration: Duration, transaction: @escaping @Sendable (Int) async throws -> Void
    ) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + duration
        let committed = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 1...tasks {
                group.addTask {
                    var count = 0
                    while clock.now < deadline {
                        try await transaction(task)
                        count += 1
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        return Double(committed) / (BenchHarness.nanoseconds(start.duration(to: clock.now)) / 1e9)
    }
}
