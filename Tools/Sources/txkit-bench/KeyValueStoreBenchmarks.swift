import Dispatch
import Foundation
import GRDB
import Synchronization
import TransactionKit
import TransactionKitSQLite
import TransactionKitTesting

/// The entries of `KeyValueStore` and commit observation:
///
/// - `kv_get_tx`: one read transaction reading one integer with
///   `KeyValueStore.getInt`, on `SQLiteDB` and `MockDB`, beside the same
///   `SELECT` on a plain GRDB `DatabasePool` whose file has the same table;
/// - `kv_set_tx`: one write transaction setting one integer with
///   `KeyValueStore.setInt`, beside the same UPSERT in plain GRDB;
/// - `commit_observers`: one committed write of a watched table with 0, 1
///   and 100 commit observers, on `SQLiteDB` and `MockDB`.
///
/// Every file has its own temporary directory entry and the settings of
/// ``BenchSettings``; `SQLiteDB` and `MockDB` are used through `any DB`.
final class KeyValueStoreBenchmarks {
    /// Keys in the collection, `key 1` … `key 1000`, whose values are id × 3.
    static let keyCount: Int64 = 1_000
    static let collection = "bench"
    static let observerCounts = [0, 1, 100]

    /// The statements `SQLiteDB`'s key-value storage runs, for the GRDB baseline.
    static let selectSQL = "SELECT value FROM transactionkit_key_value WHERE collection = ? AND key = ?"
    static let upsertSQL = """
        INSERT INTO transactionkit_key_value (collection, key, value) VALUES (?, ?, ?)
        ON CONFLICT (collection, key) DO UPDATE SET value = excluded.value
        """
    /// The library's table, created in the GRDB baseline's file.
    static let tableSQL = """
        CREATE TABLE transactionkit_key_value (
            collection TEXT NOT NULL,
            key TEXT NOT NULL,
            value ANY NOT NULL,
            PRIMARY KEY (collection, key)
        ) STRICT
        """

    let directory: URL
    let pool: DatabasePool
    let sqliteDB: any DB
    let mockDB: any DB
    /// One database per `commit_observers` variant, with its observers.
    let observed: [(name: String, db: any DB, observations: [DBCommitObservation], declares: Bool)]
    /// Where every observer runs; drained at the end of each sample.
    let observerQueue = DispatchQueue(label: "txkit-bench observers")
    let deliveries = Deliveries()

    /// Counts the observers' calls, to check that every commit was heard.
    final class Deliveries: Sendable {
        private let count = Atomic<Int>(0)
        func add() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    init(settings: BenchSettings) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("txkit-bench-kv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let seed = (1...Self.keyCount).map { id in ("key \(id)", id * 3) }

        pool = try settings.openGRDBPool(path: directory.appendingPathComponent("grdb.sqlite").path)
        try pool.write { db in
            try db.execute(sql: Self.tableSQL)
            for (key, value) in seed {
                try db.execute(sql: Self.upsertSQL, arguments: [Self.collection, key, value])
            }
        }

        let store = KeyValueStore(collection: Self.collection)
        var itemMigrator = DatabaseMigrator()
        itemMigrator.registerMigration("bench") { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, value INTEGER NOT NULL); INSERT INTO item VALUES (1, 0)")
        }
        sqliteDB = try SQLiteDB(
            path: directory.appendingPathComponent("sqlitedb.sqlite").path,
            migrator: itemMigrator,
            options: settings.sqliteDBOptions)
        try sqliteDB.write { tx in
            for (key, value) in seed {
                try store.setInt(Int(value), key: key, transaction: tx)
            }
        }
        mockDB = MockDB(
            label: "bench",
            keyValues: [Self.collection: Dictionary(uniqueKeysWithValues: seed.map { ($0, .integer($1)) })])

        var observed: [(name: String, db: any DB, observations: [DBCommitObservation], declares: Bool)] = []
        let queue = observerQueue, deliveries = deliveries
        for count in Self.observerCounts {
            let file: any DB = try SQLiteDB(
                path: directory.appendingPathComponent("observed-\(count).sqlite").path,
                migrator: itemMigrator,
                options: settings.sqliteDBOptions)
            let mock: any DB = MockDB(label: "observed-\(count)")
            for (name, db, declares) in [("sqlitedb_\(count)", file, false), ("mockdb_\(count)", mock, true)] {
                let observations = (0..<count).map { _ in
                    db.observeCommits(tables: ["item"], queue: queue) { _ in deliveries.add() }
                }
                observed.append((name, db, observations, declares))
            }
        }
        self.observed = observed
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: - Entries

    var all: [BenchEntry] {
        [get, set, observers]
    }

    var get: BenchEntry {
        let pool = pool, sqliteDB = sqliteDB, mockDB = mockDB
        let store = KeyValueStore(collection: Self.collection)
        let collection = Self.collection
        return BenchEntry(
            name: "kv_get_tx",
            note: "one read transaction reading one integer of a 1,000-key collection (keys visited in a fixed scattered order, value checked); grdb = DatabasePool.read + the cached SELECT SQLiteDB's store runs, on the same table; sqlitedb/mockdb = KeyValueStore.getInt through any DB",
            variants: [
                BenchVariant(name: "grdb") { iterations in
                    for index in 0..<Int64(iterations) {
                        let id = Self.keyID(index)
                        let value = try pool.read { db in
                            try Int64.fetchOne(db.cachedStatement(sql: Self.selectSQL), arguments: [collection, "key \(id)"])
                        }
                        try Self.check(value, id)
                    }
                },
                BenchVariant(name: "sqlitedb") { iterations in
                    for index in 0..<Int64(iterations) {
                        let id = Self.keyID(index)
                        let value = try sqliteDB.read { tx in try store.getInt("key \(id)", transaction: tx) }
                        try Self.check(value.map(Int64.init), id)
                    }
                },
                BenchVariant(name: "mockdb") { iterations in
                    for index in 0..<Int64(iterations) {
                        let id = Self.keyID(index)
                        let value = try mockDB.read { tx in try store.getInt("key \(id)", transaction: tx) }
                        try Self.check(value.map(Int64.init), id)
                    }
                },
            ],
            ratios: [("sqlitedb", "grdb"), ("mockdb", "grdb")])
    }

    var set: BenchEntry {
        let pool = pool, sqliteDB = sqliteDB, mockDB = mockDB
        let store = KeyValueStore(collection: Self.collection)
        let collection = Self.collection
        return BenchEntry(
            name: "kv_set_tx",
            note: "one write transaction setting one integer of a 1,000-key collection (an existing key, so an update), commit included; grdb = DatabasePool.write + the cached UPSERT SQLiteDB's store runs, on the same table; sqlitedb/mockdb = KeyValueStore.setInt through any DB",
            variants: [
                BenchVariant(name: "grdb") { iterations in
                    for index in 0..<Int64(iterations) {
                        let id = Self.keyID(index)
                        try pool.write { db in
                            try db.cachedStatement(sql: Self.upsertSQL).execute(arguments: [collection, "key \(id)", id * 3])
                        }
                    }
                },
                BenchVariant(name: "sqlitedb") { iterations in
                    for index in 0..<Int64(iterations) {
                        let id = Self.keyID(index)
                        try sqliteDB.write { tx in try store.setInt(Int(id * 3), key: "key \(id)", transaction: tx) }
                    }
                },
                BenchVariant(name: "mockdb") { iterations in
                    for index in 0..<Int64(iterations) {
                        let id = Self.keyID(index)
                        try mockDB.write { tx in try store.setInt(Int(id * 3), key: "key \(id)", transaction: tx) }
                    }
                },
            ],
            ratios: [("sqlitedb", "grdb"), ("mockdb", "grdb")])
    }

    var observers: BenchEntry {
        let queue = observerQueue, deliveries = deliveries
        return BenchEntry(
            name: "commit_observers",
            note: "one committed write of the watched table item with N commit observers of it (all on one serial DispatchQueue, drained at the end of each sample, so their calls are timed); sqlitedb_N = UPDATE item on a file SQLiteDB (0 observers: SQLite's changes are not tracked at all), mockdb_N = tx.declareChange(table: \"item\") on a MockDB",
            variants: observed.map { variant in
                let db = variant.db, declares = variant.declares, observerCount = variant.observations.count
                return BenchVariant(name: variant.name) { iterations in
                    _ = variant.observations
                    let before = deliveries.value
                    for _ in 0..<iterations {
                        try db.write { tx in
                            if declares {
                                tx.declareChange(table: "item")
                            } else {
                                try SQLiteDB.shimOnlyBridge(tx).execute(sql: "UPDATE item SET value = value + 1 WHERE id = 1")
                            }
                        }
                    }
                    queue.sync {}
                    let heard = deliveries.value - before
                    guard heard == iterations * observerCount else {
                        throw BenchFailure("\(variant.name): \(heard) observer calls for \(iterations) commits")
                    }
                }
            },
            ratios: [
                ("sqlitedb_1", "sqlitedb_0"), ("sqlitedb_100", "sqlitedb_0"),
                ("mockdb_1", "mockdb_0"), ("mockdb_100", "mockdb_0"),
            ])
    }

    /// A scattered walk over 1…keyCount (7919 is prime, so every key is visited).
    @inline(__always)
    private static func keyID(_ index: Int64) -> Int64 {
        (index &* 7919) % keyCount + 1
    }

    @inline(__always)
    private static func check(_ value: Int64?, _ id: Int64) throws {
        guard value == id * 3 else {
            throw BenchFailure("key \(id) read \(String(describing: value)), expected \(id * 3)")
        }
    }
}
