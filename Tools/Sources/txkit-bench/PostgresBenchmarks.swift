import Logging
import PostgresNIO
import TransactionKit
import TransactionKitPostgres

/// The PostgreSQL transaction entries: `pg_empty_write_tx`,
/// `pg_point_read_tx` and `pg_insert_1k_one_tx`, each with `PostgresDB`
/// side by side with plain postgres-nio.
///
/// Variants (every one on its own pool of ``PostgresBenchTargets/poolSize``
/// connections to the same server):
/// - `postgres_nio`: `PostgresClient.withTransaction`, which runs `BEGIN;`
///   (PostgreSQL's default level, `READ COMMITTED`), the block, `COMMIT;`.
/// - `postgresdb`: a `PostgresDB` configured `.readCommitted`, through
///   `any AsyncDB` as managers hold it; finders' SQL through
///   `PostgresDB.shimOnlyBridge(tx)`. Its writes begin with
///   `BEGIN ISOLATION LEVEL READ COMMITTED`, its reads with
///   `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`.
/// - `postgresdb_write` (point reads only): the same `PostgresDB`, the
///   `SELECT` in a write transaction, at exactly the baseline's level.
/// - `nio_txkit_sql` (a diagnostic): plain postgres-nio sending exactly
///   the statements `PostgresDB` sends (`client.withConnection`, its
///   `BEGIN ISOLATION LEVEL …`, the block, and `COMMIT` through the
///   `EventLoopFuture` query whose command tag `PostgresDB` checks), without
///   TransactionKit's engine: `postgresdb / nio_txkit_sql` is what the
///   layer costs, `nio_txkit_sql / postgres_nio` what its SQL costs.
/// - `postgresdb_serializable`: a `PostgresDB` at its default level,
///   `SERIALIZABLE` (reads `SERIALIZABLE READ ONLY`), a separate target.
///
/// Inside the transaction every variant runs the same code
/// (``selectValue(_:table:id:logger:)``, ``insertRows(_:table:from:count:logger:)``).
struct PostgresBenchmarks {
    let targets: PostgresBenchTargets

    /// Rows per transaction in `pg_insert_1k_one_tx`.
    static let insertRowCount = 1_000

    /// Every PostgreSQL entry, in the order they run (`pg_write_throughput`
    /// is ``PostgresThroughputBenchmark``).
    static let entryNames = [
        "pg_empty_write_tx", "pg_point_read_tx", "pg_insert_1k_one_tx", PostgresThroughputBenchmark.entryName,
        PostgresFreshDatabaseBenchmark.entryName,
    ]

    var all: [BenchEntry] { [emptyWrite, pointRead, insert1k] }

    private static let ratios = [("postgresdb", "postgres_nio"), ("postgresdb_serializable", "postgres_nio")]

    var emptyWrite: BenchEntry {
        let client = targets.client, logger = targets.logger
        let db: any AsyncDB = targets.readCommittedDB
        let serializable: any AsyncDB = targets.serializableDB
        return BenchEntry(
            name: "pg_empty_write_tx",
            note: "one write transaction whose block does nothing; postgres_nio = PostgresClient.withTransaction (BEGIN; COMMIT;), postgresdb = PostgresDB.write at READ COMMITTED, postgresdb_serializable at SERIALIZABLE",
            variants: [
                .async(name: "postgres_nio") { iterations in
                    for _ in 0..<iterations {
                        try await client.withTransaction(logger: logger) { _ in }
                    }
                },
                .async(name: "postgresdb") { iterations in
                    for _ in 0..<iterations {
                        try await db.write { _ in }
                    }
                },
                .async(name: "postgresdb_serializable") { iterations in
                    for _ in 0..<iterations {
                        try await serializable.write { _ in }
                    }
                },
                .async(name: "nio_txkit_sql") { iterations in
                    for _ in 0..<iterations {
                        try await Self.withTxKitStatements(client, begin: "BEGIN ISOLATION LEVEL READ COMMITTED", logger: logger) { _ in }
                    }
                },
            ],
            ratios: Self.ratios + Self.diagnosticRatios)
    }

    var pointRead: BenchEntry {
        let client = targets.client, logger = targets.logger, table = targets.itemTable
        let db: any AsyncDB = targets.readCommittedDB
        let serializable: any AsyncDB = targets.serializableDB
        let count = PostgresBenchTargets.pointRowCount
        return BenchEntry(
            name: "pg_point_read_tx",
            note: "one transaction per SELECT value FROM item WHERE id = $1 (1,000-row table, ids in a fixed scattered order, result checked); postgres_nio = withTransaction (READ COMMITTED), postgresdb = PostgresDB.read (REPEATABLE READ READ ONLY), postgresdb_write = PostgresDB.write (READ COMMITTED), postgresdb_serializable = PostgresDB.read (SERIALIZABLE READ ONLY)",
            variants: [
                .async(name: "postgres_nio") { iterations in
                    for index in 0..<Int64(iterations) {
                        let id = Self.pointID(index, count)
                        let value = try await client.withTransaction(logger: logger) { connection in
                            try await Self.selectValue(connection, table: table, id: id, logger: logger)
                        }
                        try Self.check(value, id)
                    }
                },
                .async(name: "postgresdb") { iterations in
                    for index in 0..<Int64(iterations) {
                        let id = Self.pointID(index, count)
                        let value = try await db.read { tx in
                            try await Self.selectValue(PostgresDB.shimOnlyBridge(tx), table: table, id: id, logger: logger)
                        }
                        try Self.check(value, id)
                    }
                },
                .async(name: "postgresdb_write") { iterations in
                    for index in 0..<Int64(iterations) {
                        let id = Self.pointID(index, count)
                        let value = try await db.write { tx in
                            try await Self.selectValue(PostgresDB.shimOnlyBridge(tx), table: table, id: id, logger: logger)
                        }
                        try Self.check(value, id)
                    }
                },
                .async(name: "postgresdb_serializable") { iterations in
                    for index in 0..<Int64(iterations) {
                        let id = Self.pointID(index, count)
                        let value = try await serializable.read { tx in
                            try await Self.selectValue(PostgresDB.shimOnlyBridge(tx), table: table, id: id, logger: logger)
                        }
                        try Self.check(value, id)
                    }
                },
                .async(name: "nio_txkit_sql") { iterations in
                    for index in 0..<Int64(iterations) {
                        let id = Self.pointID(index, count)
                        let value = try await Self.withTxKitStatements(
                            client, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger
                        ) { connection in
                            try await Self.selectValue(connection, table: table, id: id, logger: logger)
                        }
                        try Self.check(value, id)
                    }
                },
            ],
            ratios: Self.ratios + [("postgresdb_write", "postgres_nio")] + Self.diagnosticRatios)
    }

    var insert1k: BenchEntry {
        let client = targets.client, logger = targets.logger
        let db: any AsyncDB = targets.readCommittedDB
        let serializable: any AsyncDB = targets.serializableDB
        let rows = Self.insertRowCount
        func emptying(_ variant: String) -> @Sendable () async throws -> Void {
            let table = targets.bulkTable(variant)
            return {
                try await client.query(PostgresQuery(unsafeSQL: "TRUNCATE \(table)"), logger: logger)
            }
        }
        let nioTable = targets.bulkTable("postgres_nio")
        let dbTable = targets.bulkTable("postgresdb")
        let serializableTable = targets.bulkTable("postgresdb_serializable")
        return BenchEntry(
            name: "pg_insert_1k_one_tx",
            note: "ns per row: 1,000 INSERTs (bigint, text, bigint; one round trip each) in one write transaction, commit included; each variant has its own table, emptied (TRUNCATE, untimed) before each sample",
            variants: [
                .async(name: "postgres_nio", operationsPerIteration: rows, prepare: emptying("postgres_nio")) { iterations in
                    for iteration in 0..<iterations {
                        try await client.withTransaction(logger: logger) { connection in
                            try await Self.insertRows(
                                connection, table: nioTable, from: Int64(iteration * rows), count: rows, logger: logger)
                        }
                    }
                },
                .async(name: "postgresdb", operationsPerIteration: rows, prepare: emptying("postgresdb")) { iterations in
                    for iteration in 0..<iterations {
                        try await db.write { tx in
                            try await Self.insertRows(
                                PostgresDB.shimOnlyBridge(tx), table: dbTable, from: Int64(iteration * rows), count: rows,
                                logger: logger)
                        }
                    }
                },
                .async(
                    name: "postgresdb_serializable", operationsPerIteration: rows,
                    prepare: emptying("postgresdb_serializable")
                ) { iterations in
                    for iteration in 0..<iterations {
                        try await serializable.write { tx in
                            try await Self.insertRows(
                                PostgresDB.shimOnlyBridge(tx), table: serializableTable, from: Int64(iteration * rows),
                                count: rows, logger: logger)
                        }
                    }
                },
            ],
            ratios: Self.ratios)
    }

    private static let diagnosticRatios = [("postgresdb", "nio_txkit_sql"), ("nio_txkit_sql", "postgres_nio")]

    /// The `nio_txkit_sql` transaction: `PostgresDB`'s statements on plain
    /// postgres-nio (no rollback path: the benchmark's blocks do not throw).
    private static func withTxKitStatements<T: Sendable>(
        _ client: PostgresClient, begin: String, logger: Logger,
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await client.withConnection { connection in
            try await connection.query(PostgresQuery(unsafeSQL: begin), logger: logger)
            let value = try await body(connection)
            let commit: EventLoopFuture<PostgresQueryResult> = connection.query(PostgresQuery(unsafeSQL: "COMMIT"), logger: logger)
            guard try await commit.get().metadata.command == "COMMIT" else { throw BenchFailure("COMMIT did not commit") }
            return value
        }
    }

    // MARK: - The work inside the transaction, the same for every variant

    /// `SELECT value FROM <table> WHERE id = $1`: the value, or `nil`.
    static func selectValue(
        _ connection: some PostgresBenchQuerying, table: String, id: Int64, logger: Logger
    ) async throws -> Int64? {
        let rows = try await connection.benchQuery(
            "SELECT value FROM \(unescaped: table) WHERE id = \(id)", logger: logger)
        var value: Int64?
        for try await row in rows.decode(Int64.self) {
            value = row
        }
        return value
    }

    /// `count` INSERTs, one statement (one round trip) each, ids after `start`.
    static func insertRows(
        _ connection: some PostgresBenchQuerying, table: String, from start: Int64, count: Int, logger: Logger
    ) async throws {
        for offset in 1...Int64(count) {
            let id = start + offset
            _ = try await connection.benchQuery(
                "INSERT INTO \(unescaped: table) (id, name, value) VALUES (\(id), \(rowName), \(id))", logger: logger)
        }
    }

    /// The text every inserted row holds.
    private static let rowName = "name"

    /// A scattered walk over 1…count (7919 is prime, so every id is visited).
    private static func pointID(_ index: Int64, _ count: Int64) -> Int64 {
        (index &* 7919) % count + 1
    }

    private static func check(_ value: Int64?, _ id: Int64) throws {
        guard value == id * 3 else {
            throw BenchFailure("point read of id \(id) returned \(String(describing: value)), expected \(id * 3)")
        }
    }
}
