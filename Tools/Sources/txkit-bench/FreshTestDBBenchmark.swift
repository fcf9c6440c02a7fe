import Foundation
import GRDB
import TransactionKit
import TransactionKitSQLite
import TransactionKitSQLiteTesting

/// The `fresh_test_db` benchmark: what a test pays for a fresh database with
/// the full schema, per strategy, on the package's 20-table, 30-migration
/// synthetic schema.
///
/// One operation makes a database, runs its first query (which makes SQLite
/// load the schema, a cost a copy would otherwise hide), and drops it:
///
/// - `empty_connection`: `SQLiteDB.inMemory()` with no schema, the floor.
/// - `migrate_each`: `SQLiteDB.inMemory(migrator:)`, all 30 migrations.
/// - `template_clone`: `SQLiteTemplate.makeDatabase()`, the chosen strategy
///   (`sqlite3_deserialize` of the template's image).
/// - `template_backup`: the alternative `SQLiteTemplate` does not use: a
///   migrated GRDB `DatabaseQueue` copied into an empty one with GRDB's
///   `backup(to:)` (the SQLite online backup API), queried through GRDB.
/// - `rollback_per_test`: one shared migrated database; the "test" is
///   `BEGIN IMMEDIATE`, the query, `ROLLBACK` (not offered as an API; see
///   Guides/Testing.md).
/// - `*_open_only`: the same as their namesake without the first query,
///   to show where the time goes: a copied database pays for SQLite parsing
///   its schema at its first statement, an empty one has nothing to parse.
/// - `first_query_on_copy`, `first_query_on_migrated`: the first query
///   alone (databases made and dropped outside the timed region), on a copy
///   and on a database that ran the migrations itself.
///
/// Variants run side by side in one process, interleaved sample by sample,
/// after one warm-up batch each. Each sample times a batch of operations and
/// divides by the batch size.
enum FreshTestDBBenchmark {
    /// Per-database cost samples in nanoseconds, one value per sample, per variant.
    static func run(quick: Bool) throws -> [(variant: String, nanosecondsPerOp: [Double])] {
        let sampleCount = quick ? 5 : 21
        let batchSize = quick ? 10 : 30
        let migrator = SyntheticSchema.migrator()
        let template = SQLiteTemplate(migrator: migrator)
        try template.prepare()
        let shared = try DatabaseQueue()
        try migrator.migrate(shared)

        // Databases made before a batch, outside the timed region, for the
        // variants that time a first query alone; dropped after the batch.
        let prepared = Prepared()
        let copies = { prepared.reset(try (0..<batchSize).map { _ in try template.makeDatabase() }) }
        let migrated = { prepared.reset(try (0..<batchSize).map { _ in try SQLiteDB.inMemory(migrator: migrator) }) }

        let variants: [Variant] = [
            Variant("empty_connection") { try firstQuery(SQLiteDB.inMemory()) },
            Variant("migrate_each") { try firstQuery(SQLiteDB.inMemory(migrator: migrator)) },
            Variant("template_clone") { try firstQuery(template.makeDatabase()) },
            Variant("template_backup") { try firstQuery(backupCopy(of: shared)) },
            Variant("rollback_per_test") { try rollbackPerTest(shared) },
            // Where the time goes: making a database without querying it,
            // and the first query alone, on a copy (SQLite parses the schema)
            // and on a connection that ran the migrations (already parsed).
            Variant("empty_connection_open_only") { _ = try SQLiteDB.inMemory() },
            Variant("template_clone_open_only") { _ = try template.makeDatabase() },
            Variant("template_backup_open_only") { _ = try backupCopy(of: shared) },
            Variant("first_query_on_copy", beforeBatch: copies) { try firstQuery(prepared.next()) },
            Variant("first_query_on_migrated", beforeBatch: migrated) { try firstQuery(prepared.next()) },
        ]

        for variant in variants {
            try variant.beforeBatch?()
            for _ in 0..<batchSize { try variant.operation() }
        }
        var samples = Array(repeating: [Double](), count: variants.count)
        let clock = ContinuousClock()
        for _ in 0..<sampleCount {
            for (index, variant) in variants.enumerated() {
                try variant.beforeBatch?()
                let elapsed = try clock.measure {
                    for _ in 0..<batchSize { try variant.operation() }
                }
                samples[index].append(nanoseconds(elapsed) / Double(batchSize))
            }
        }
        prepared.reset([])
        return zip(variants, samples).map { (variant: $0.name, nanosecondsPerOp: $1) }
    }

    /// One benchmarked operation, with optional untimed work before each batch.
    private struct Variant {
        let name: String
        let beforeBatch: (() throws -> Void)?
        let operation: () throws -> Void

        init(_ name: String, beforeBatch: (() throws -> Void)? = nil, operation: @escaping () throws -> Void) {
            self.name = name
            self.beforeBatch = beforeBatch
            self.operation = operation
        }
    }

    /// Databases made ahead of a batch; `next()` hands them out in turn and
    /// keeps them alive until the next `reset`, so that closing them is not
    /// timed either.
    private final class Prepared {
        private var databases: [SQLiteDB] = []
        private var used: [SQLiteDB] = []

        func reset(_ databases: [SQLiteDB]) {
            used = []
            self.databases = databases
        }

        func next() -> SQLiteDB {
            let db = databases.removeLast()
            used.append(db)
            return db
        }
    }

    /// Runs the first query a test would run: it makes SQLite read the schema.
    private static func firstQuery(_ db: SQLiteDB) throws {
        let count = try db.read { tx in
            try Int.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT COUNT(*) FROM sqlite_master")
        }
        precondition(count != nil)
    }

    /// A copy of `source` made with the SQLite online backup API.
    private static func backupCopy(of source: DatabaseQueue) throws -> DatabaseQueue {
        let copy = try DatabaseQueue()
        try source.backup(to: copy)
        return copy
    }

    /// The first query a test would run, on a plain GRDB queue.
    private static func firstQuery(_ queue: DatabaseQueue) throws {
        let count = try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") }
        precondition(count != nil)
    }

    /// One test's worth of the transactional-test strategy, on raw GRDB
    /// (TransactionKit deliberately has no API that leaves a transaction open).
    private static func rollbackPerTest(_ writer: any DatabaseWriter) throws {
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master")
            precondition(count != nil)
            try db.execute(sql: "ROLLBACK")
        }
    }

    private static func nanoseconds(_ duration: Duration) -> Double {
        let components = duration.components
        return Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
    }
}
