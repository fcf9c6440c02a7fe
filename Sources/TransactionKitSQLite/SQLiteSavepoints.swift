import GRDB
import GRDBSQLite
import TransactionKit

/// Savepoints on an ``SQLiteDB``: `SAVEPOINT`, `RELEASE` and `ROLLBACK TO`
/// on the transaction's own GRDB connection, whether TransactionKit began
/// the transaction or bridged it from the application's (adopted pools and
/// queues, `writeTransaction(bridging:)`).
///
/// The statements run through GRDB (cached statements), so that GRDB sees
/// them: its transaction observers hear only the changes that survive (GRDB
/// holds a savepoint's changes until it is released, and drops them at its
/// rollback), which keeps ``SQLiteChangeTracker`` and the application's
/// own observers right. Every savepoint has one name, as GRDB's
/// `inSavepoint` has its own (`grdb`): they nest, and each statement names
/// the innermost.
///
/// **Errors:** a storage fault is a ``/TransactionKit/DBError``, as the
/// key-value store throws them. A transaction that SQLite ended by itself
/// inside the savepoint (after an interrupt, a full disk; or the block ran
/// `ROLLBACK` or `COMMIT`) fails the release or rollback with the error the
/// write reports for it (``SQLiteTransactionAborted``).
struct SQLiteSavepoints: SavepointStorage {
    static let name = "transactionkit"

    /// Names the database in errors.
    let path: String

    func perform(_ step: SavepointStep, in transaction: DBWriteTransaction, at callSite: CallSite) throws {
        // The engine checked that the transaction is active on this thread,
        // and it came from this database's scope.
        guard let db = transaction.connection as? Database else {
            preconditionFailure("TransactionKit internal error: an SQLiteDB transaction without a connection")
        }
        try SQLiteDB.checkBridgedTransactionCanRunSQL(transaction, db, for: "inSavepoint", at: callSite)
        do {
            switch step {
            case .begin:
                try db.cachedStatement(sql: "SAVEPOINT \(Self.name)").execute()
            case .release:
                try Self.checkInsideTransaction(db)
                try db.cachedStatement(sql: "RELEASE SAVEPOINT \(Self.name)").execute()
            case .rollBack:
                try Self.checkInsideTransaction(db)
                // `ROLLBACK TO` keeps the savepoint open: `RELEASE` ends it.
                try db.cachedStatement(sql: "ROLLBACK TO SAVEPOINT \(Self.name)").execute()
                try db.cachedStatement(sql: "RELEASE SAVEPOINT \(Self.name)").execute()
            }
        } catch {
            throw SQLiteErrors.storageError(from: error, path: path, operation: .write)
                ?? SQLiteErrors.other(error, path: path, operation: .write)
        }
    }

    /// Throws when SQLite ended the transaction by itself (its savepoints
    /// went with it), asked of SQLite directly.
    private static func checkInsideTransaction(_ db: Database) throws(SQLiteTransactionAborted) {
        if let connection = db.sqliteConnection, sqlite3_get_autocommit(connection) != 0 {
            throw SQLiteTransactionAborted()
        }
    }
}
