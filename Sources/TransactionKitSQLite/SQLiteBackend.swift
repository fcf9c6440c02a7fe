import GRDB
import GRDBSQLite
import TransactionKit

/// The storage side of ``SQLiteDB``: transactions on GRDB connections.
///
/// - Reads of a file database run on ``SQLiteReaderPool``'s read-only
///   connections; reads of an in-memory database on its only connection,
///   made read-only for the duration (GRDB's `Database.readOnly`).
/// - Writes run on the GRDB writer (`writeWithoutTransaction`), in a
///   transaction begun and committed with ``SQLiteTransactionStatements``;
///   while someone observes commits, ``SQLiteChangeTracker`` (installed by
///   ``SQLiteChangeTracking``) collects the tables it changed.
struct SQLiteBackend: SyncTransactionBackend {
    let writer: any DatabaseWriter
    /// The read-only connections of a file database; `nil` in memory.
    let readers: SQLiteReaderPool?
    /// The writer connection's transaction statements.
    let writerStatements: SQLiteWriterStatements
    let path: String
    let isReadOnly: Bool
    let closing: SQLiteClosing
    /// The tables each write changes, while someone observes (GRDB holds
    /// the tracker weakly: this is the reference that keeps it alive).
    let changeTracking: SQLiteChangeTracking
    /// Whether `writer` is the application's own pool or queue
    /// (`SQLiteDB(adopting:)`): then a transaction opened on the writer
    /// while the application's own transaction is open there is refused.
    let isAdopted: Bool

    func performRead<R>(_ body: (AnyObject?) throws -> R) throws -> R {
        try checkOpen(for: .read)
        if let readers {
            return try readers.read { db in try body(db) }
        }
        if isAdopted {
            return try writer.unsafeReentrantWrite { db in
                try Self.refuseInsideApplicationTransaction(db)
                return try writerStatements.statements(on: db).inReadTransaction(db, enforcingReadOnly: true) { db in
                    try body(db)
                }
            }
        }
        return try writer.writeWithoutTransaction { db in
            try writerStatements.statements(on: db).inReadTransaction(db, enforcingReadOnly: true) { db in try body(db) }
        }
    }

    func performWrite<R>(_ body: (AnyObject?) throws -> R, onCommit: (DBChanges) -> Void) throws -> R {
        try checkWritable()
        if isAdopted {
            // Reentrant: called from inside the application's own write on
            // the adopted writer, this runs there at once and is refused,
            // instead of waiting for itself or tripping GRDB's check.
            return try writer.unsafeReentrantWrite { db in
                try Self.refuseInsideApplicationTransaction(db)
                return try inImmediateTransaction(db, body, onCommit: onCommit)
            }
        }
        return try writer.writeWithoutTransaction { db in
            try inImmediateTransaction(db, body, onCommit: onCommit)
        }
    }

    func performRead<R: Sendable>(_ body: @Sendable (AnyObject?) throws -> R) async throws -> R {
        try checkOpen(for: .read)
        if let readers {
            return try await readers.read { db in try body(db) }
        }
        let writerStatements = writerStatements
        return try await writer.writeWithoutTransaction { db in
            try writerStatements.statements(on: db).inReadTransaction(db, enforcingReadOnly: true) { db in try body(db) }
        }
    }

    func performWrite<R: Sendable>(
        _ body: @Sendable (AnyObject?) throws -> R,
        onCommit: @Sendable (DBChanges) -> Void
    ) async throws -> R {
        try checkWritable()
        return try await writer.writeWithoutTransaction { db in
            try inImmediateTransaction(db, body, onCommit: onCommit)
        }
    }

    private static func refuseInsideApplicationTransaction(_ db: Database) throws(ApplicationTransactionInProgress) {
        // SQLite's flag, read directly: GRDB's `isInsideTransaction` adds a
        // thread check that costs more than the flag (adopted_empty_write_tx).
        if let connection = db.sqliteConnection, sqlite3_get_autocommit(connection) == 0 {
            throw ApplicationTransactionInProgress()
        }
    }

    private func checkOpen(for operation: DBError.Operation) throws(DBError) {
        if closing.isClosed {
            throw DBError.closedDatabase(path: path, operation: operation)
        }
    }

    private func checkWritable() throws(DBError) {
        try checkOpen(for: .write)
        if isReadOnly {
            throw DBError.writeToReadOnlyDatabase(path: path)
        }
    }

    /// `BEGIN IMMEDIATE`, the body, `COMMIT`; `ROLLBACK` if anything throws.
    /// Then, still on the writer queue (no other write can commit before),
    /// tells the commit observers what the committed transaction changed.
    ///
    /// **Stray commits** are found once, when the block returned: a
    /// transaction that SQLite ended before (it rolls a transaction back by
    /// itself after an interrupt, a full disk, an I/O error; or the block
    /// ran `ROLLBACK` or `COMMIT`) fails the write with
    /// ``SQLiteTransactionAborted``, as GRDB's `inTransaction` does. Nothing
    /// runs per statement to refuse the statements in between: those the
    /// block ran after the transaction ended ran outside it, each committed
    /// on its own (SQLite's autocommit), and a `COMMIT` run by the block
    /// committed what the transaction had written until then. Observers
    /// hear those commits like any other.
    private func inImmediateTransaction<R>(
        _ db: Database,
        _ body: (AnyObject?) throws -> R,
        onCommit: (DBChanges) -> Void
    ) throws -> R {
        let tracker = changeTracking.tracker
        tracker.beginOwnTransaction()
        defer { tracker.endOwnTransaction() }
        let value: R
        do {
            let statements = try writerStatements.statements(on: db)
            defer { statements.preconditionNoTransactionLeft() }
            try statements.beginWrite()
            do {
                value = try body(db)
                tracker.isCommitExpected = true
                try statements.commit(db)
            } catch {
                statements.rollBack(db)
                throw error
            }
        } catch {
            tracker.reset()
            throw error
        }
        onCommit(DBChanges(tables: tracker.take()))
        return value
    }

    /// Errors raised outside the block: storage faults become `DBError`;
    /// a constraint violation found at commit (a deferred foreign key) is an
    /// error about the data: a `DBConstraintViolation`.
    func storageError(from error: any Error, during operation: DBError.Operation) -> any Error {
        if let violation = SQLiteErrors.constraintViolation(from: error, path: path) {
            return violation
        }
        return SQLiteErrors.storageError(from: error, path: path, operation: operation, isClosed: closing.isClosed)
            ?? SQLiteErrors.other(error, path: path, operation: operation)
    }

    /// Errors thrown by the block: storage faults become `DBError`,
    /// constraint violations `DBConstraintViolation`; anything else passes
    /// through unchanged.
    func blockError(from error: any Error, during operation: DBError.Operation) -> any Error {
        SQLiteErrors.constraintViolation(from: error, path: path)
            ?? SQLiteErrors.storageError(from: error, path: path, operation: operation, isClosed: closing.isClosed)
            ?? error
    }
}
