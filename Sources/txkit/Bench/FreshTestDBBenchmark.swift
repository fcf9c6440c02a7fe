import GRDB

/// PROVISIONAL — owned by the fast-test-databases issue, which replaces this
/// file at merge. It measures what a fresh test database costs, on a 20-table,
/// 30-migration schema, so that `txkit bench` has real `fresh_test_db`
/// numbers until then. Nothing else builds on its internals: only
/// ``run(quick:)`` is the contract.
///
/// Variants (in-memory GRDB `DatabaseQueue`s, per database):
/// - `empty_connection`: open an empty in-memory connection (and close it).
/// - `migrate_each`: open one and run the 30 migrations on it.
/// - `template_clone`: copy a template, migrated once, with SQLite's backup
///   API (GRDB `backup(to:)`) into a new empty connection.
///
/// Samples are taken in interleaved rounds, like the rest of `txkit bench`.
enum FreshTestDBBenchmark {
    /// A database did not come out as expected.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Per-database cost samples in nanoseconds, one value per sample, per variant.
    static func run(quick: Bool) throws -> [(variant: String, nanosecondsPerOp: [Double])] {
        let migrator = makeMigrator()
        let template = try DatabaseQueue()
        try migrator.migrate(template)
        let expectedTables = try tableCount(template)
        guard expectedTables == 20 + 1 else {  // + grdb_migrations
            throw Failure("fresh_test_db: the template has \(expectedTables) tables, expected 21")
        }

        let variants: [(name: String, makeDatabase: () throws -> DatabaseQueue)] = [
            ("empty_connection", { try DatabaseQueue() }),
            ("migrate_each", {
                let queue = try DatabaseQueue()
                try migrator.migrate(queue)
                return queue
            }),
            ("template_clone", {
                let queue = try DatabaseQueue()
                try template.backup(to: queue)
                return queue
            }),
        ]

        let target: Double = quick ? 4e6 : 10e6
        let rounds = quick ? 5 : 61
        let clock = ContinuousClock()
        func time(_ count: Int, _ makeDatabase: () throws -> DatabaseQueue) throws -> Double {
            let start = clock.now
            for _ in 0..<count {
                _ = try makeDatabase()
            }
            let elapsed = start.duration(to: clock.now).components
            return Double(elapsed.seconds) * 1e9 + Double(elapsed.attoseconds) / 1e9
        }

        // Check each variant once, then calibrate (this also warms up).
        var counts: [Int] = []
        for variant in variants {
            let database = try variant.makeDatabase()
            let tables = try tableCount(database)
            let expected = variant.name == "empty_connection" ? 0 : expectedTables
            guard tables == expected else {
                throw Failure("fresh_test_db: \(variant.name) made \(tables) tables, expected \(expected)")
            }
            var count = 1
            while true {
                let elapsed = try time(count, variant.makeDatabase)
                if elapsed >= target / 4 {
                    counts.append(max(1, Int((Double(count) * target / elapsed).rounded())))
                    break
                }
                count *= 2
            }
        }

        var samples = Array(repeating: [Double](), count: variants.count)
        for round in 0..<rounds {
            for offset in 0..<variants.count {
                let index = (round + offset) % variants.count
                samples[index].append(try time(counts[index], variants[index].makeDatabase) / Double(counts[index]))
            }
        }
        return zip(variants, samples).map { (variant: $0.name, nanosecondsPerOp: $1) }
    }

    private static func tableCount(_ queue: DatabaseQueue) throws -> Int {
        try queue.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'") ?? 0
        }
    }

    /// 30 migrations: 20 create a table each (with an index), 10 add columns
    /// and indexes to earlier tables.
    private static func makeMigrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for table in 1...20 {
            migrator.registerMigration("v\(table)-create-t\(table)") { db in
                let reference = table > 1 ? ", parent_id INTEGER REFERENCES t\(table - 1)(id) ON DELETE CASCADE" : ""
                try db.execute(sql: """
                    CREATE TABLE t\(table) (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL,
                        created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
                        score REAL NOT NULL DEFAULT 0,
                        payload BLOB\(reference)
                    );
                    CREATE INDEX t\(table)_name ON t\(table)(name);
                    """)
            }
        }
        for step in 1...10 {
            let table = step * 2
            migrator.registerMigration("v\(20 + step)-alter-t\(table)") { db in
                try db.execute(sql: """
                    ALTER TABLE t\(table) ADD COLUMN flag\(step) INTEGER NOT NULL DEFAULT 0;
                    CREATE INDEX t\(table)_flag\(step) ON t\(table)(flag\(step), score);
                    """)
            }
        }
        return migrator
    }
}
