import Foundation
import GRDB
import TransactionKit
import TransactionKitSQLite

/// The three databases of ``ContentionBenchmark``, with the same rows
/// (`item`, id × 3) and a one-row `tick` table that the writer updates; and
/// the read and commit functions of each variant.
final class ContentionTargets: Sendable {
    let rawPath: String
    let settings: BenchSettings
    let pool: DatabasePool
    let sqliteDB: SQLiteDB

    static let schema = """
        CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, value INTEGER NOT NULL);
        CREATE TABLE tick (id INTEGER PRIMARY KEY, n INTEGER NOT NULL);
        INSERT INTO tick (id, n) VALUES (1, 0);
        """
    static let pointReadSQL = "SELECT value FROM item WHERE id = ?"
    static let tickSQL = "UPDATE tick SET n = n + 1 WHERE id = 1"

    init(directory: URL, settings: BenchSettings, rowCount: Int64) throws {
        self.settings = settings
        let rows = """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rowCount))
            INSERT INTO item (id, name, value) SELECT i, 'item ' || i, i * 3 FROM n
            """
        rawPath = directory.appendingPathComponent("sqlite_c.sqlite").path
        let setUp = try RawSQLiteConnection(path: rawPath, settings: settings)
        try setUp.execute("BEGIN; " + Self.schema + rows + "; COMMIT")

        pool = try settings.openGRDBPool(path: directory.appendingPathComponent("grdb.sqlite").path)
        try pool.write { db in
            try db.execute(sql: Self.schema)
            try db.execute(sql: rows)
        }

        var migrator = DatabaseMigrator()
        migrator.registerMigration("bench") { db in
            try db.execute(sql: Self.schema)
            try db.execute(sql: rows)
        }
        sqliteDB = try SQLiteDB(
            path: directory.appendingPathComponent("sqlitedb.sqlite").path, migrator: migrator,
            options: settings.sqliteDBOptions)
    }

    /// A point read for one reader thread of `variant`: `sqlite_c` opens a
    /// connection of its own.
    func reader(_ variant: String) throws -> @Sendable (Int64) throws -> Int64? {
        switch variant {
        case "sqlite_c":
            let connection = try RawConnectionBox(path: rawPath, settings: settings)
            return { id in try connection.pointRead(id) }
        case "grdb":
            let pool = pool
            return { id in
                try pool.read { db in try Int64.fetchOne(db.cachedStatement(sql: Self.pointReadSQL), arguments: [id]) }
            }
        default:
            let db: any DB = sqliteDB
            return { id in
                try db.read { tx in
                    try Int64.fetchOne(SQLiteDB.shimOnlyBridge(tx).cachedStatement(sql: Self.pointReadSQL), arguments: [id])
                }
            }
        }
    }

    /// One small committed write of `variant`.
    func writer(_ variant: String) throws -> @Sendable () throws -> Void {
        switch variant {
        case "sqlite_c":
            let connection = try RawConnectionBox(path: rawPath, settings: settings)
            return { try connection.tick() }
        case "grdb":
            let pool = pool
            return { try pool.write { db in try db.cachedStatement(sql: Self.tickSQL).execute() } }
        default:
            let db: any DB = sqliteDB
            return { try db.write { tx in try SQLiteDB.shimOnlyBridge(tx).cachedStatement(sql: Self.tickSQL).execute() } }
        }
    }
}

/// One raw connection with its prepared statements, used by one thread
/// only (hence `@unchecked Sendable`).
final class RawConnectionBox: @unchecked Sendable {
    private let connection: RawSQLiteConnection
    private let beginDeferred: RawSQLiteConnection.Statement
    private let beginImmediate: RawSQLiteConnection.Statement
    private let commit: RawSQLiteConnection.Statement
    private let select: RawSQLiteConnection.Statement
    private let update: RawSQLiteConnection.Statement

    init(path: String, settings: BenchSettings) throws {
        connection = try RawSQLiteConnection(path: path, settings: settings)
        beginDeferred = try connection.prepare("BEGIN DEFERRED")
        beginImmediate = try connection.prepare("BEGIN IMMEDIATE")
        commit = try connection.prepare("COMMIT")
        select = try connection.prepare(ContentionTargets.pointReadSQL)
        update = try connection.prepare(ContentionTargets.tickSQL)
    }

    func pointRead(_ id: Int64) throws -> Int64? {
        try beginDeferred.run()
        select.bind(id, at: 1)
        let value = try select.run()
        try commit.run()
        return value
    }

    func tick() throws {
        try beginImmediate.run()
        try update.run()
        try commit.run()
    }
}
