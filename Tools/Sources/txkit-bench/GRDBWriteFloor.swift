import GRDB
import GRDBSQLite

/// The cheapest write transactions that reach GRDB's `Database`: the
/// `grdb_floor` and `grdb_floor_stmts` variants of `empty_write_tx`.
///
/// Anything built on GRDB (`SQLiteDB` included) pays at least one
/// `writeWithoutTransaction` (GRDB's `DispatchQueue.sync` into the writer's
/// queue), a `BEGIN IMMEDIATE` and a `COMMIT`. The two variants run exactly
/// that, with statements prepared once on the pool's writer connection:
///
/// - ``runLikeSQLiteDB()`` (`grdb_floor`): `BEGIN IMMEDIATE` stepped as an
///   sqlite3 statement, `COMMIT` executed as a GRDB `Statement`, which is
///   what `SQLiteDB` runs. GRDB must see the commit: it always has SQLite's
///   commit hook installed, and tells its transaction observers (an
///   application's, `afterNextTransaction`, `SQLiteDB`'s change tracker)
///   about the commit when its COMMIT statement has run. The floor of
///   `SQLiteDB`'s design.
/// - ``runThroughGRDB()`` (`grdb_floor_stmts`): both as GRDB `Statement`s,
///   the cheapest write through GRDB's API alone.
///
/// Stepping `COMMIT` as an sqlite3 statement too is no floor: GRDB's commit
/// hook runs, and GRDB finishes that commit (tells its observers) only when
/// its next statement runs, in the next transaction.
///
/// - Warning: Not thread-safe; one benchmark uses it from one thread. The
///   pool must outlive it (`deinit` finalizes on the pool's writer).
final class GRDBWriteFloor {
    private let pool: DatabasePool
    private let begin: Statement
    private let commit: Statement
    private let rawBegin: OpaquePointer

    init(pool: DatabasePool) throws {
        self.pool = pool
        (begin, commit, rawBegin) = try pool.writeWithoutTransaction { db in
            guard let connection = db.sqliteConnection else { throw BenchFailure("the GRDB writer is closed") }
            return (
                try db.makeStatement(sql: "BEGIN IMMEDIATE"), try db.makeStatement(sql: "COMMIT"),
                try Self.prepare("BEGIN IMMEDIATE", on: connection))
        }
    }

    deinit {
        let rawBegin = rawBegin
        pool.writeWithoutTransaction { _ in
            _ = sqlite3_finalize(rawBegin)
        }
    }

    /// One empty write transaction: `writeWithoutTransaction`, then the
    /// prepared sqlite3 statement `BEGIN IMMEDIATE` and the prepared GRDB
    /// statement `COMMIT`.
    @inline(__always)
    func runLikeSQLiteDB() throws {
        let rawBegin = rawBegin, commit = commit
        try pool.writeWithoutTransaction { _ in
            try Self.step(rawBegin)
            try commit.execute()
        }
    }

    /// One empty write transaction: `writeWithoutTransaction`, then the
    /// prepared GRDB statements `BEGIN IMMEDIATE` and `COMMIT`.
    @inline(__always)
    func runThroughGRDB() throws {
        let begin = begin, commit = commit
        try pool.writeWithoutTransaction { _ in
            try begin.execute()
            try commit.execute()
        }
    }

    @inline(__always)
    private static func step(_ statement: OpaquePointer) throws {
        defer { sqlite3_reset(statement) }
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else { throw BenchFailure("sqlite3_step returned \(code)") }
    }

    private static func prepare(_ sql: String, on connection: OpaquePointer) throws -> OpaquePointer {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else { throw BenchFailure("cannot prepare \(sql): \(code)") }
        return statement
    }
}
