import GRDB
import GRDBSQLite

/// The statements that begin and end TransactionKit's transactions on one
/// GRDB connection, prepared once for the life of the connection.
///
/// GRDB's `Database.inTransaction` compiles `BEGIN` and `COMMIT` again on
/// every call, which costs more than SQLite needs for the whole empty
/// transaction (Benchmarks/README.md). Here:
///
/// - `BEGIN DEFERRED`, `BEGIN IMMEDIATE` and `PRAGMA schema_version` are
///   sqlite3 statements prepared with
///   `SQLITE_PREPARE_PERSISTENT` and stepped directly. GRDB does not see
///   them, and does not need to: `BEGIN` has no effect that GRDB tracks
///   (GRDB notices that the connection left autocommit mode at the block's
///   first statement, and dates the transaction then).
/// - `COMMIT` is a GRDB `Statement`, made once and executed through GRDB,
///   because GRDB must see it: its transaction observers (``SQLiteChangeTracker``,
///   and any a finder registers) are told about the commit when the COMMIT
///   statement has run, and GRDB resets the transaction date then.
/// - `ROLLBACK`, a failure path, goes through GRDB's `Database.rollback()`.
/// - A read on a reader connection during which GRDB did not see the
///   connection leave autocommit mode (no GRDB statement finished in it:
///   an empty read, a `fetchOne` that stops at its row) ends with `COMMIT`
///   stepped as an sqlite3 statement: GRDB still sees the connection in
///   autocommit mode, and keeps nothing else about a read transaction on
///   a read-only connection (see ``SQLiteReaderTransactionClock``).
///
/// **No transaction left open:** each method ends with the connection out
/// of any transaction, or stops the process (``preconditionNoTransactionLeft()``):
/// GRDB's own check at the end of each access (off on TransactionKit's
/// connections, `Configuration.allowsUnsafeTransactions`) cost more than
/// the question (a dispatch-specific lookup for its thread check).
///
/// **Schema cache:** a read transaction reads `PRAGMA schema_version` right
/// after `BEGIN DEFERRED`, which takes the transaction's snapshot, and
/// clears GRDB's schema cache on this connection when another connection
/// changed the schema since the last read (what GRDB's `DatabasePool` does
/// before each read).
///
/// **Threads:** only the connection's own GRDB queue uses an instance, and
/// ``finalize()`` runs before the connection closes (also from `deinit`).
/// No access to a field spans a call, so the fields' runtime exclusivity
/// checks, paid by every transaction, are off.
final class SQLiteTransactionStatements: @unchecked Sendable {
    private let connection: OpaquePointer
    @exclusivity(unchecked) private var beginDeferred: OpaquePointer?
    @exclusivity(unchecked) private var beginImmediate: OpaquePointer?
    @exclusivity(unchecked) private var schemaVersion: OpaquePointer?
    @exclusivity(unchecked) private var commitStatement: Statement?
    @exclusivity(unchecked) private var unseenCommit: OpaquePointer?
    @exclusivity(unchecked) private var lastSchemaVersion: Int32?
    /// A reader's clock, which tells whether GRDB saw the read.
    private let readerClock: SQLiteReaderTransactionClock?

    /// Prepares the statements on `db`'s connection.
    ///
    /// - Parameter readerClock: On a read-only connection, its GRDB
    ///   transaction clock: reads that GRDB did not see end without GRDB.
    init(_ db: Database, readerClock: SQLiteReaderTransactionClock? = nil) throws {
        guard let connection = db.sqliteConnection else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "connection is closed")
        }
        self.connection = connection
        self.readerClock = readerClock
        do {
            beginDeferred = try Self.prepare("BEGIN DEFERRED", on: connection)
            beginImmediate = try Self.prepare("BEGIN IMMEDIATE", on: connection)
            schemaVersion = try Self.prepare("PRAGMA schema_version", on: connection)
            let commitStatement = try db.makeStatement(sql: "COMMIT")
            // No arguments, bound once: GRDB then only resets the statement
            // before each execution, instead of validating its (empty)
            // arguments again on every commit.
            commitStatement.setUncheckedArguments(StatementArguments())
            self.commitStatement = commitStatement
            unseenCommit = try Self.prepare("COMMIT", on: connection)
        } catch {
            finalize()
            throw error
        }
    }

    deinit {
        finalize()
    }

    /// Finalizes every statement; the connection can then close.
    /// Idempotent.
    func finalize() {
        for statement in [beginDeferred, beginImmediate, schemaVersion, unseenCommit] {
            sqlite3_finalize(statement)
        }
        beginDeferred = nil
        beginImmediate = nil
        schemaVersion = nil
        unseenCommit = nil
        commitStatement = nil
    }

    // MARK: - Transactions

    /// Runs `body` in one read transaction: ``beginRead(_:)``, the body,
    /// ``commit(_:)``; a rollback when either throws.
    ///
    /// On a reader (`readerClock`), a read during which GRDB did not see the
    /// connection leave autocommit mode commits with `COMMIT` stepped as an
    /// sqlite3 statement (see ``SQLiteReaderTransactionClock``).
    ///
    /// - Parameter enforcingReadOnly: Whether to make the connection refuse
    ///   writes meanwhile, for a connection that can write (an in-memory
    ///   database): GRDB's `Database.readOnly`, which sets
    ///   `PRAGMA query_only` with a cached statement, and keeps the read's
    ///   commit from GRDB's transaction observers.
    func inReadTransaction<R>(
        _ db: Database, enforcingReadOnly: Bool, _ body: (Database) throws -> R
    ) throws -> R {
        if enforcingReadOnly {
            return try db.readOnly {
                try inReadTransaction(db, enforcingReadOnly: false, body)
            }
        }
        defer { preconditionNoTransactionLeft() }
        try beginRead(db)
        let value: R
        do {
            value = try body(db)
            if let readerClock, !readerClock.wasAsked {
                try commitUnseen()
            } else {
                try commit(db)
            }
        } catch {
            rollBack(db)
            throw error
        }
        return value
    }

    /// `BEGIN DEFERRED`, then `PRAGMA schema_version`, which takes the
    /// snapshot; clears GRDB's schema cache when the schema changed.
    func beginRead(_ db: Database) throws {
        readerClock?.reset()
        try step(beginDeferred, sql: "BEGIN DEFERRED")
        let version: Int32
        do {
            version = try readSchemaVersion()
        } catch {
            rollBack(db)
            throw error
        }
        if version != lastSchemaVersion {
            db.clearSchemaCache()
            lastSchemaVersion = version
        }
    }

    /// `BEGIN IMMEDIATE`: takes the write lock (waiting within the busy
    /// timeout).
    func beginWrite() throws {
        try step(beginImmediate, sql: "BEGIN IMMEDIATE")
    }

    /// `COMMIT`, through GRDB.
    ///
    /// - Throws: ``SQLiteTransactionAborted`` when SQLite already ended the
    ///   transaction (it rolls a transaction back by itself after some
    ///   errors: a full disk, an I/O error, no memory); GRDB's error when
    ///   the commit fails.
    func commit(_ db: Database) throws {
        guard isInsideTransaction else {
            throw SQLiteTransactionAborted()
        }
        guard let commitStatement else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "connection is closed")
        }
        do {
            try commitStatement.execute()
        } catch {
            // A failed statement keeps its error until it is reset, and GRDB
            // would throw it again at the next COMMIT: clear it now.
            sqlite3_reset(commitStatement.sqliteStatement)
            throw error
        }
    }

    /// `COMMIT` of a read that GRDB did not see, stepped directly (see
    /// ``inReadTransaction(_:enforcingReadOnly:_:)``).
    private func commitUnseen() throws {
        guard isInsideTransaction else {
            throw SQLiteTransactionAborted()
        }
        try step(unseenCommit, sql: "COMMIT")
    }

    /// Stops the process if the connection is still inside a transaction:
    /// TransactionKit's bug (a `ROLLBACK` that failed), which GRDB's own
    /// check at the end of a database access would have stopped too.
    func preconditionNoTransactionLeft() {
        precondition(!isInsideTransaction, "TransactionKit internal error: a transaction was left open on a connection")
    }

    /// Rolls back the transaction if one is still open. Errors are ignored:
    /// SQLite rolls back a transaction whose `ROLLBACK` fails when the
    /// connection closes, or at the next `BEGIN`.
    func rollBack(_ db: Database) {
        if isInsideTransaction {
            try? db.rollback()
        }
    }

    // MARK: - Private

    /// Whether the connection is inside a transaction, asked of SQLite
    /// directly (GRDB's `isInsideTransaction` first checks that it runs on
    /// the connection's queue, which costs more than the question).
    private var isInsideTransaction: Bool {
        sqlite3_get_autocommit(connection) == 0
    }

    private func readSchemaVersion() throws -> Int32 {
        defer { sqlite3_reset(schemaVersion) }
        let code = sqlite3_step(schemaVersion)
        guard code == SQLITE_ROW else {
            throw error(code, sql: "PRAGMA schema_version")
        }
        return sqlite3_column_int(schemaVersion, 0)
    }

    private func step(_ statement: OpaquePointer?, sql: String) throws {
        defer { sqlite3_reset(statement) }
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else {
            // Before the reset, while SQLite's message is the step's.
            throw error(code, sql: sql)
        }
    }

    /// GRDB's error for a failed statement, as GRDB would have thrown it
    /// (extended result codes are on for GRDB's connections).
    private func error(_ code: Int32, sql: String) -> DatabaseError {
        DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }

    private static func prepare(_ sql: String, on connection: OpaquePointer) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
        return statement
    }
}
