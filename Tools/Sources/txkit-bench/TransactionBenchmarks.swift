import Foundation
import GRDB
import TransactionKit
import TransactionKitSQLite
import TransactionKitTesting

/// The transaction entries: `empty_read_tx`, `empty_write_tx`,
/// `insert_10k_one_tx` and `point_read_tx`, each on a raw sqlite3
/// connection, a plain GRDB `DatabasePool` and an `SQLiteDB` (and a `MockDB`
/// for the empty transactions). `insert_10k_one_tx` also runs on a second
/// `SQLiteDB` that one commit observer watches (`sqlitedb_observed`).
///
/// Every file variant has its own database file in a fresh temporary
/// directory, with the same schema and the same settings (``BenchSettings``).
/// `SQLiteDB` and `MockDB` are used through `any DB`, the way managers hold
/// them.
final class TransactionBenchmarks {
    /// Rows in `item`, the table that point reads look up.
    static let pointRowCount: Int64 = 1_000
    /// Rows per transaction in `insert_10k_one_tx`.
    static let insertRowCount = 10_000

    let settings: BenchSettings
    let directory: URL
    let raw: RawSQLiteConnection
    let pool: DatabasePool
    /// `BEGIN IMMEDIATE` and `COMMIT` prepared on `pool`'s writer, for the
    /// floor of a write through GRDB (`empty_write_tx`: `grdb_floor`,
    /// `grdb_floor_stmts`).
    let writeFloor: GRDBWriteFloor
    let sqliteDB: any DB
    /// An `SQLiteDB` of its own file, watched by ``commitObservation``.
    let observedDB: any DB
    /// One commit observer of `bulk` on `observedDB`, for as long as the
    /// benchmarks live.
    private var commitObservation: DBCommitObservation?
    let mockDB: any DB

    // The raw baseline's statements, prepared once.
    private let rawBeginDeferred: RawSQLiteConnection.Statement
    private let rawBeginImmediate: RawSQLiteConnection.Statement
    private let rawCommit: RawSQLiteConnection.Statement
    private let rawSchemaVersion: RawSQLiteConnection.Statement
    private let rawInsert: RawSQLiteConnection.Statement
    private let rawPointRead: RawSQLiteConnection.Statement

    static let schema = """
        CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, value INTEGER NOT NULL);
        CREATE TABLE bulk (id INTEGER PRIMARY KEY, name TEXT NOT NULL, value INTEGER NOT NULL);
        """
    static let insertSQL = "INSERT INTO bulk (id, name, value) VALUES (?, ?, ?)"
    static let pointReadSQL = "SELECT value FROM item WHERE id = ?"

    init(settings: BenchSettings) throws {
        self.settings = settings
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("txkit-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)

        raw = try RawSQLiteConnection(path: directory.appendingPathComponent("sqlite_c.sqlite").path, settings: settings)
        try raw.execute(Self.schema)
        try raw.execute("BEGIN; " + Self.itemRowsSQL + "; COMMIT")

        pool = try settings.openGRDBPool(path: directory.appendingPathComponent("grdb.sqlite").path)
        try pool.write { db in
            try db.execute(sql: Self.schema)
            try db.execute(sql: Self.itemRowsSQL)
        }
        writeFloor = try GRDBWriteFloor(pool: pool)

        var migrator = DatabaseMigrator()
        migrator.registerMigration("bench") { db in
            try db.execute(sql: Self.schema)
            try db.execute(sql: Self.itemRowsSQL)
        }
        sqliteDB = try SQLiteDB(
            path: directory.appendingPathComponent("sqlitedb.sqlite").path,
            migrator: migrator,
            options: settings.sqliteDBOptions)
        observedDB = try SQLiteDB(
            path: directory.appendingPathComponent("sqlitedb-observed.sqlite").path,
            migrator: migrator,
            options: settings.sqliteDBOptions)
        mockDB = MockDB(label: "bench")

        rawBeginDeferred = try raw.prepare("BEGIN DEFERRED")
        rawBeginImmediate = try raw.prepare("BEGIN IMMEDIATE")
        rawCommit = try raw.prepare("COMMIT")
        rawSchemaVersion = try raw.prepare("PRAGMA schema_version")
        rawInsert = try raw.prepare(Self.insertSQL)
        rawPointRead = try raw.prepare(Self.pointReadSQL)
        commitObservation = observedDB.observeCommits(tables: ["bulk"]) { _ in }
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Fills `item` with rows 1…pointRowCount, whose value is id × 3.
    private static var itemRowsSQL: String {
        """
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(pointRowCount))
        INSERT INTO item (id, name, value) SELECT i, 'item ' || i, i * 3 FROM n
        """
    }

    /// The settings as the raw connection reports them, for the report.
    func effectiveSettings() throws -> String {
        let rawLine = "sqlite_c journal_mode=\(try raw.pragmaValue("journal_mode")) synchronous=\(try raw.pragmaValue("synchronous"))"
        let grdbSync = try pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
        let grdbMode = try pool.writeWithoutTransaction { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "?" }
        return "\(rawLine); grdb writer journal_mode=\(grdbMode) synchronous=\(grdbSync) (0 OFF, 1 NORMAL, 2 FULL)"
    }

    // MARK: - Entries

    var all: [BenchEntry] {
        [emptyRead, emptyWrite, insert10k, pointRead, asyncEmptyWrite, asyncPointRead]
    }

    var emptyRead: BenchEntry {
        let raw = raw, begin = rawBeginDeferred, commit = rawCommit, schemaVersion = rawSchemaVersion
        let pool = pool, sqliteDB = sqliteDB, mockDB = mockDB
        return BenchEntry(
            name: "empty_read_tx",
            note: "one read transaction whose block does nothing; sqlite_c = prepared BEGIN DEFERRED + COMMIT with no statement between (SQLite takes no snapshot), sqlite_c_snapshot = BEGIN DEFERRED + PRAGMA schema_version (which takes the snapshot, as DatabasePool.read and SQLiteDB.read do) + COMMIT, grdb = DatabasePool.read",
            variants: [
                BenchVariant(name: "sqlite_c") { iterations in
                    _ = raw
                    for _ in 0..<iterations {
                        try begin.run()
                        try commit.run()
                    }
                },
                BenchVariant(name: "sqlite_c_snapshot") { iterations in
                    for _ in 0..<iterations {
                        try begin.run()
                        try schemaVersion.run()
                        try commit.run()
                    }
                },
                BenchVariant(name: "grdb") { iterations in
                    for _ in 0..<iterations { try pool.read { _ in } }
                },
                BenchVariant(name: "sqlitedb") { iterations in
                    for _ in 0..<iterations { try sqliteDB.read { _ in } }
                },
                BenchVariant(name: "mockdb") { iterations in
                    for _ in 0..<iterations { try mockDB.read { _ in } }
                },
            ],
            ratios: [("sqlitedb", "grdb"), ("sqlitedb", "sqlite_c_snapshot"), ("grdb", "sqlite_c")])
    }

    var emptyWrite: BenchEntry {
        let begin = rawBeginImmediate, commit = rawCommit
        let pool = pool, writeFloor = writeFloor, sqliteDB = sqliteDB, mockDB = mockDB
        return BenchEntry(
            name: "empty_write_tx",
            note: "one write transaction whose block does nothing; sqlite_c = prepared BEGIN IMMEDIATE + COMMIT (no page is written, so no fsync), grdb = DatabasePool.write, grdb_floor = DatabasePool.writeWithoutTransaction, a prepared sqlite3 BEGIN IMMEDIATE and a prepared GRDB COMMIT statement (what SQLiteDB runs, without TransactionKit: the floor of its design), grdb_floor_stmts = the same access with both as prepared GRDB statements (GRDB's API alone)",
            variants: [
                BenchVariant(name: "sqlite_c") { iterations in
                    for _ in 0..<iterations {
                        try begin.run()
                        try commit.run()
                    }
                },
                BenchVariant(name: "grdb") { iterations in
                    for _ in 0..<iterations { try pool.write { _ in } }
                },
                BenchVariant(name: "grdb_floor") { iterations in
                    for _ in 0..<iterations { try writeFloor.runLikeSQLiteDB() }
                },
                BenchVariant(name: "grdb_floor_stmts") { iterations in
                    for _ in 0..<iterations { try writeFloor.runThroughGRDB() }
                },
                BenchVariant(name: "sqlitedb") { iterations in
                    for _ in 0..<iterations { try sqliteDB.write { _ in } }
                },
                BenchVariant(name: "mockdb") { iterations in
                    for _ in 0..<iterations { try mockDB.write { _ in } }
                },
            ],
            ratios: [
                ("sqlitedb", "grdb"), ("sqlitedb", "sqlite_c"), ("grdb", "sqlite_c"),
                ("grdb_floor", "sqlite_c"), ("grdb_floor_stmts", "sqlite_c"),
                ("sqlitedb", "grdb_floor"),
            ])
    }

    var insert10k: BenchEntry {
        let raw = raw, begin = rawBeginImmediate, commit = rawCommit, insert = rawInsert
        let pool = pool, sqliteDB = sqliteDB, observedDB = observedDB
        let rows = Self.insertRowCount
        let sqliteDBInserts = { (name: String, db: any DB) in
            BenchVariant(
                name: name, operationsPerIteration: rows,
                prepare: { try db.write { tx in try SQLiteDB.shimOnlyBridge(tx).execute(sql: "DELETE FROM bulk") } },
                body: { iterations in
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
                })
        }
        return BenchEntry(
            name: "insert_10k_one_tx",
            note: "ns per row: 10,000 INSERTs (integer, text, integer) in one write transaction, commit included, one prepared statement reused (GRDB cachedStatement; sqlitedb reaches GRDB through shimOnlyBridge); the table is emptied, untimed, before each sample; sqlitedb_observed = the same on an SQLiteDB with one commit observer of bulk (db.observeCommits)",
            variants: [
                BenchVariant(
                    name: "sqlite_c", operationsPerIteration: rows,
                    prepare: { try raw.execute("DELETE FROM bulk") },
                    body: { iterations in
                        var id: Int64 = 0
                        for _ in 0..<iterations {
                            try begin.run()
                            for _ in 0..<rows {
                                id += 1
                                insert.bind(id, at: 1)
                                insert.bind("name", at: 2)
                                insert.bind(id, at: 3)
                                try insert.run()
                            }
                            try commit.run()
                        }
                    }),
                BenchVariant(
                    name: "grdb", operationsPerIteration: rows,
                    prepare: { try pool.write { db in try db.execute(sql: "DELETE FROM bulk") } },
                    body: { iterations in
                        var id: Int64 = 0
                        for _ in 0..<iterations {
                            try pool.write { db in
                                let statement = try db.cachedStatement(sql: Self.insertSQL)
                                for _ in 0..<rows {
                                    id += 1
                                    try statement.execute(arguments: [id, "name", id])
                                }
                            }
                        }
                    }),
                sqliteDBInserts("sqlitedb", sqliteDB),
                sqliteDBInserts("sqlitedb_observed", observedDB),
            ],
            ratios: [("sqlitedb", "grdb"), ("sqlitedb_observed", "grdb"), ("sqlitedb_observed", "sqlitedb"), ("grdb", "sqlite_c")])
    }

    var pointRead: BenchEntry {
        let begin = rawBeginDeferred, commit = rawCommit, select = rawPointRead
        let pool = pool, sqliteDB = sqliteDB
        let count = Self.pointRowCount
        return BenchEntry(
            name: "point_read_tx",
            note: "one read transaction per SELECT value FROM item WHERE id = ? (1,000-row table, ids visited in a fixed scattered order, result checked); sqlite_c = BEGIN DEFERRED + SELECT + COMMIT, prepared statements",
            variants: [
                BenchVariant(name: "sqlite_c") { iterations in
                    for index in 0..<Int64(iterations) {
                        let id = Self.pointID(index, count)
                        try begin.run()
                        select.bind(id, at: 1)
                        let value = try select.run()
                        try commit.run()
                        try Self.check(value, id)
                    }
                },
                BenchVariant(name: "grdb") { iterations in
                    for index in 0..<Int64(iterations) {
                        let id = Self.pointID(index, count)
                        let value = try pool.read { db in
                            try Int64.fetchOne(db.cachedStatement(sql: Self.pointReadSQL), arguments: [id])
                        }
                        try Self.check(value, id)
                    }
                },
                BenchVariant(name: "sqlitedb") { iterations in
                    for index in 0..<Int64(iterations) {
                        let id = Self.pointID(index, count)
                        let value = try sqliteDB.read { tx in
                            try Int64.fetchOne(
                                try SQLiteDB.shimOnlyBridge(tx).cachedStatement(sql: Self.pointReadSQL), arguments: [id])
                        }
                        try Self.check(value, id)
                    }
                },
            ],
            ratios: [("sqlitedb", "grdb"), ("sqlitedb", "sqlite_c"), ("grdb", "sqlite_c")])
    }

    /// A scattered walk over 1…count (7919 is prime, so every id is visited).
    @inline(__always)
    static func pointID(_ index: Int64, _ count: Int64) -> Int64 {
        (index &* 7919) % count + 1
    }

    @inline(__always)
    static func check(_ value: Int64?, _ id: Int64) throws {
        guard value == id * 3 else {
            throw BenchFailure("point read of id \(id) returned \(String(describing: value)), expected \(id * 3)")
        }
    }
}
