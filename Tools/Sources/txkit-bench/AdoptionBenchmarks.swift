import Foundation
import GRDB
import TransactionKit
import TransactionKitSQLite

/// The entries of `SQLiteDB(adopting:)`: what adopting
/// an application's GRDB `DatabasePool` costs the application's own code,
/// what a bridged transaction costs, and what adoption costs migrated code.
///
/// - `adopted_insert_10k_one_tx`: the legacy `pool.write` with 10,000
///   INSERTs, on a pool that an `SQLiteDB` adopted (`grdb_adopted`) and on
///   one that nobody adopted (`grdb`); `grdb_observed` is a pool with one
///   permanent GRDB transaction observer that observes nothing, to show
///   that the entry sees what such an observer costs a writer;
///   `sqlitedb_adopted` is the same inserts through the adopting
///   `SQLiteDB`'s `write`; `grdb_adopted_live` is the legacy `pool.write`
///   on a pool whose adopting `SQLiteDB` has one live value (`db.observe`)
///   running, so that the pool's writer carries TransactionKit's change
///   tracker.
/// - `bridged_empty_write_tx`, `bridged_insert_write_tx`: the application's
///   `pool.write` on the adopted pool, plain (`grdb`) and bridged with
///   `writeTransaction(bridging:)` (`bridged`), empty or with one INSERT.
/// - `adopted_empty_write_tx`, `adopted_point_read_tx`: an `SQLiteDB` that
///   adopted a pool (`sqlitedb_adopted`) beside `SQLiteDB(path:)`
///   (`sqlitedb`) and plain GRDB (`grdb`), through `any DB`.
///
/// Every pool has its own file, the schema of ``TransactionBenchmarks`` and
/// the settings of ``BenchSettings`` (the adopted pool is opened as the
/// `grdb` baseline is: WAL, the same `synchronous`, foreign keys, 5 s busy
/// timeout, 5 readers).
final class AdoptionBenchmarks {
    static let insertRowCount = TransactionBenchmarks.insertRowCount
    static let pointRowCount = TransactionBenchmarks.pointRowCount
    static let insertSQL = TransactionBenchmarks.insertSQL
    static let pointReadSQL = TransactionBenchmarks.pointReadSQL
    /// The table of the one-INSERT bridged writes (emptied before each sample).
    static let singleInsertSQL = "INSERT INTO single (id, name, value) VALUES (?, ?, ?)"

    static let entryNames: Set<String> = [
        "adopted_insert_10k_one_tx", "bridged_empty_write_tx", "bridged_insert_write_tx",
        "adopted_empty_write_tx", "adopted_point_read_tx",
    ]

    let directory: URL
    /// A plain pool nobody adopted: the application before adoption.
    let plainPool: DatabasePool
    /// A plain pool with one permanent transaction observer that observes
    /// nothing (`observer`): what such an observer costs a writer.
    let observedPool: DatabasePool
    let observer = IdleTransactionObserver()
    /// The application's pool, and the `SQLiteDB` that adopted it.
    let appPool: DatabasePool
    let adoptedDB: SQLiteDB
    /// A second application pool, whose adopting `SQLiteDB` has a live value
    /// running for as long as the benchmarks live (``liveValue``).
    let livePool: DatabasePool
    let liveDB: SQLiteDB
    private var liveValue: DBObservationCancellable?
    /// `SQLiteDB(path:)` on a file of its own.
    let pathDB: SQLiteDB

    init(settings: BenchSettings) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("txkit-bench-adoption-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory

        func openPool(_ name: String) throws -> DatabasePool {
            let pool = try settings.openGRDBPool(path: directory.appendingPathComponent(name).path)
            try pool.write { db in try Self.createSchema(db) }
            return pool
        }
        plainPool = try openPool("grdb.sqlite")
        observedPool = try openPool("grdb-observed.sqlite")
        observedPool.add(transactionObserver: observer, extent: .observerLifetime)
        appPool = try openPool("grdb-adopted.sqlite")
        adoptedDB = try SQLiteDB(adopting: appPool)
        livePool = try openPool("grdb-adopted-live.sqlite")
        liveDB = try SQLiteDB(adopting: livePool)

        var migrator = DatabaseMigrator()
        migrator.registerMigration("bench") { db in try Self.createSchema(db) }
        pathDB = try SQLiteDB(
            path: directory.appendingPathComponent("sqlitedb.sqlite").path, migrator: migrator,
            options: settings.sqliteDBOptions)

        // One write of each kind on the adopted pool before anything is
        // measured: TransactionKit's own, and a bridged one.
        try adoptedDB.write { tx in try SQLiteDB.shimOnlyBridge(tx).execute(sql: "DELETE FROM bulk") }
        try appPool.write { db in
            let tx = try adoptedDB.writeTransaction(bridging: db)
            try SQLiteDB.shimOnlyBridge(tx).execute(sql: "DELETE FROM single")
        }
        liveValue = try Self.startLiveValue(on: liveDB)
    }

    /// Starts a live value that reads `item` (which the inserts never
    /// change: no re-fetch competes with them), and returns once its first
    /// value arrived, that is, once it observes.
    private static func startLiveValue(on db: SQLiteDB) throws -> DBObservationCancellable {
        let firstValue = DispatchSemaphore(value: 0)
        let cancellable = db.observe { tx in
            try Int64.fetchOne(SQLiteDB.shimOnlyBridge(tx), sql: "SELECT value FROM item WHERE id = 1")
        }.start { _ in firstValue.signal() }
        guard firstValue.wait(timeout: .now() + 30) == .success else {
            throw BenchFailure("the live value on the adopted pool delivered no first value")
        }
        return cancellable
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    static func createSchema(_ db: Database) throws {
        try db.execute(sql: TransactionBenchmarks.schema)
        try db.execute(sql: "CREATE TABLE single (id INTEGER PRIMARY KEY, name TEXT NOT NULL, value INTEGER NOT NULL)")
        try db.execute(sql: """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(pointRowCount))
            INSERT INTO item (id, name, value) SELECT i, 'item ' || i, i * 3 FROM n
            """)
    }

    /// A GRDB transaction observer that observes no event: registered, it
    /// makes GRDB run its observation broker around every statement and
    /// commit, as `SQLiteDB(path:)`'s change tracker did while permanent.
    final class IdleTransactionObserver: TransactionObserver, Sendable {
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) {}
        func databaseDidRollback(_ db: Database) {}
    }

    // MARK: - Entries

    var all: [BenchEntry] {
        [insert10k, bridgedEmptyWrite, bridgedInsertWrite, emptyWrite, pointRead]
    }

    /// 10,000 INSERTs in one `pool.write`, the legacy way.
    private static func legacyInserts(_ pool: DatabasePool, iterations: Int) throws {
        var id: Int64 = 0
        for _ in 0..<iterations {
            try pool.write { db in
                let statement = try db.cachedStatement(sql: insertSQL)
                for _ in 0..<insertRowCount {
                    id += 1
                    try statement.execute(arguments: [id, "name", id])
                }
            }
        }
    }

    var insert10k: BenchEntry {
        let plainPool = plainPool, observedPool = observedPool, appPool = appPool, adoptedDB = adoptedDB
        let livePool = livePool
        let rows = Self.insertRowCount
        let empty = { (pool: DatabasePool) in try pool.write { db in try db.execute(sql: "DELETE FROM bulk") } }
        return BenchEntry(
            name: "adopted_insert_10k_one_tx",
            note: "ns per row: the legacy pool.write with 10,000 INSERTs (cached statement) on a pool adopted by an SQLiteDB (grdb_adopted: before each sample, untimed, one SQLiteDB write and one bridged pool.write ran on it) and on a pool nobody adopted (grdb); grdb_observed = a pool with one permanent GRDB transaction observer that observes nothing (what such an observer costs a writer); sqlitedb_adopted = the same INSERTs in the adopting SQLiteDB's write; grdb_adopted_live = the legacy pool.write on a pool whose adopting SQLiteDB has one live value running (db.observe of a row of item, which the inserts leave alone: the writer carries the change tracker, and no re-fetch runs)",
            variants: [
                BenchVariant(
                    name: "grdb", operationsPerIteration: rows,
                    prepare: { try empty(plainPool) },
                    body: { iterations in try Self.legacyInserts(plainPool, iterations: iterations) }),
                BenchVariant(
                    name: "grdb_adopted", operationsPerIteration: rows,
                    prepare: {
                        // Migrated and bridged writes come and go on the
                        // application's pool; the legacy writes after them
                        // must not pay for their observers.
                        try adoptedDB.write { tx in try SQLiteDB.shimOnlyBridge(tx).execute(sql: "DELETE FROM bulk") }
                        try appPool.write { db in
                            let tx = try adoptedDB.writeTransaction(bridging: db)
                            try SQLiteDB.shimOnlyBridge(tx).execute(sql: "DELETE FROM single")
                        }
                    },
                    body: { iterations in try Self.legacyInserts(appPool, iterations: iterations) }),
                BenchVariant(
                    name: "grdb_adopted_live", operationsPerIteration: rows,
                    prepare: { try empty(livePool) },
                    body: { iterations in try Self.legacyInserts(livePool, iterations: iterations) }),
                BenchVariant(
                    name: "grdb_observed", operationsPerIteration: rows,
                    prepare: { try empty(observedPool) },
                    body: { iterations in try Self.legacyInserts(observedPool, iterations: iterations) }),
                BenchVariant(
                    name: "sqlitedb_adopted", operationsPerIteration: rows,
                    prepare: { try empty(appPool) },
                    body: { iterations in
                        let db: any DB = adoptedDB
                        var id: Int64 = 0
                        for _ in 0..<iterations {
                            try db.write { tx in
                                let statement = try SQLiteDB.shimOnlyBridge(tx).cachedStatement(sql: Self.insertSQL)
                                for _ in 0..<rows {
                                    id += 1
                                    try statement.execute(arguments: [id, "name", id])
                                }
                            }
                        }
                    }),
            ],
            ratios: [
                ("grdb_adopted", "grdb"), ("grdb_adopted_live", "grdb"), ("grdb_observed", "grdb"),
                ("sqlitedb_adopted", "grdb"),
            ])
    }

    var bridgedEmptyWrite: BenchEntry {
        let appPool = appPool, adoptedDB = adoptedDB
        return BenchEntry(
            name: "bridged_empty_write_tx",
            note: "one empty pool.write on the adopted pool: grdb = plain, bridged = the block calls db.writeTransaction(bridging:) and nothing else (the bridge's GRDB observer runs at the commit)",
            variants: [
                BenchVariant(name: "grdb") { iterations in
                    for _ in 0..<iterations { try appPool.write { _ in } }
                },
                BenchVariant(name: "bridged") { iterations in
                    for _ in 0..<iterations {
                        try appPool.write { db in _ = try adoptedDB.writeTransaction(bridging: db) }
                    }
                },
            ],
            ratios: [("bridged", "grdb")])
    }

    var bridgedInsertWrite: BenchEntry {
        let appPool = appPool, adoptedDB = adoptedDB
        let empty = { try appPool.write { db in try db.execute(sql: "DELETE FROM single") } }
        return BenchEntry(
            name: "bridged_insert_write_tx",
            note: "one pool.write on the adopted pool with one INSERT (cached statement; the table is emptied, untimed, before each sample), commit included: grdb = plain; bridged = db.writeTransaction(bridging:), then the INSERT through SQLiteDB.shimOnlyBridge(tx); bridged_direct = the bridge made, the INSERT on the block's Database",
            variants: [
                BenchVariant(name: "grdb", prepare: empty) { iterations in
                    for id in 1...Int64(iterations) {
                        try appPool.write { db in
                            try db.cachedStatement(sql: Self.singleInsertSQL).execute(arguments: [id, "name", id])
                        }
                    }
                },
                BenchVariant(name: "bridged", prepare: empty) { iterations in
                    for id in 1...Int64(iterations) {
                        try appPool.write { db in
                            let tx = try adoptedDB.writeTransaction(bridging: db)
                            try SQLiteDB.shimOnlyBridge(tx).cachedStatement(sql: Self.singleInsertSQL)
                                .execute(arguments: [id, "name", id])
                        }
                    }
                },
                BenchVariant(name: "bridged_direct", prepare: empty) { iterations in
                    for id in 1...Int64(iterations) {
                        try appPool.write { db in
                            _ = try adoptedDB.writeTransaction(bridging: db)
                            try db.cachedStatement(sql: Self.singleInsertSQL).execute(arguments: [id, "name", id])
                        }
                    }
                },
            ],
            ratios: [("bridged", "grdb"), ("bridged_direct", "grdb")])
    }

    var emptyWrite: BenchEntry {
        let plainPool = plainPool
        let pathDB: any DB = pathDB, adoptedDB: any DB = adoptedDB
        return BenchEntry(
            name: "adopted_empty_write_tx",
            note: "one empty write transaction: sqlitedb_adopted = SQLiteDB(adopting: the application's pool), sqlitedb = SQLiteDB(path:), both through any DB; grdb = DatabasePool.write on a plain pool",
            variants: [
                BenchVariant(name: "grdb") { iterations in
                    for _ in 0..<iterations { try plainPool.write { _ in } }
                },
                BenchVariant(name: "sqlitedb") { iterations in
                    for _ in 0..<iterations { try pathDB.write { _ in } }
                },
                BenchVariant(name: "sqlitedb_adopted") { iterations in
                    for _ in 0..<iterations { try adoptedDB.write { _ in } }
                },
            ],
            ratios: [("sqlitedb_adopted", "sqlitedb"), ("sqlitedb", "grdb"), ("sqlitedb_adopted", "grdb")])
    }

    var pointRead: BenchEntry {
        let plainPool = plainPool
        let pathDB: any DB = pathDB, adoptedDB: any DB = adoptedDB
        let count = Self.pointRowCount
        func sqliteDBReads(_ db: any DB) -> (Int) throws -> Void {
            { iterations in
                for index in 0..<Int64(iterations) {
                    let id = Self.pointID(index, count)
                    let value = try db.read { tx in
                        try Int64.fetchOne(
                            try SQLiteDB.shimOnlyBridge(tx).cachedStatement(sql: Self.pointReadSQL), arguments: [id])
                    }
                    try Self.check(value, id)
                }
            }
        }
        return BenchEntry(
            name: "adopted_point_read_tx",
            note: "one read transaction per SELECT value FROM item WHERE id = ? (1,000 rows, fixed scattered order, result checked): sqlitedb_adopted = SQLiteDB(adopting:), sqlitedb = SQLiteDB(path:), both through any DB and shimOnlyBridge; grdb = DatabasePool.read on a plain pool",
            variants: [
                BenchVariant(name: "grdb") { iterations in
                    for index in 0..<Int64(iterations) {
                        let id = Self.pointID(index, count)
                        let value = try plainPool.read { db in
                            try Int64.fetchOne(db.cachedStatement(sql: Self.pointReadSQL), arguments: [id])
                        }
                        try Self.check(value, id)
                    }
                },
                BenchVariant(name: "sqlitedb", body: sqliteDBReads(pathDB)),
                BenchVariant(name: "sqlitedb_adopted", body: sqliteDBReads(adoptedDB)),
            ],
            ratios: [("sqlitedb_adopted", "sqlitedb"), ("sqlitedb", "grdb"), ("sqlitedb_adopted", "grdb")])
    }

    /// A scattered walk over 1…count (7919 is prime, so every id is visited).
    @inline(__always)
    private static func pointID(_ index: Int64, _ count: Int64) -> Int64 {
        (index &* 7919) % count + 1
    }

    @inline(__always)
    private static func check(_ value: Int64?, _ id: Int64) throws {
        guard value == id * 3 else {
            throw BenchFailure("point read of id \(id) returned \(String(describing: value)), expected \(id * 3)")
        }
    }
}
