import GRDB
import GRDBSQLite
import TransactionKit

extension SQLiteDB {
    /// Unwraps a transaction into GRDB's `Database`, for the one place where
    /// legacy or concrete data-access code needs SQL: a finder or a
    /// Shortcut-Way wrapper.
    ///
    /// ```swift
    /// struct ComposeManager_MessageFinderWrapper: ComposeManager_MessageFinderShim {
    ///     func insert(_ draft: Draft, _ tx: DBWriteTransaction) throws -> Message {
    ///         let db = try SQLiteDB.shimOnlyBridge(tx)
    ///         return try LegacyMessageFinder.insert(draft, LegacyTransaction(db))
    ///     }
    /// }
    /// ```
    ///
    /// This is deliberately the only door from the abstract world into SQL:
    /// keep its calls in finders and wrappers, never in managers.
    ///
    /// **Transaction semantics:** the returned `Database` is inside the very
    /// transaction `transaction` stands for, read-only or writable as it is.
    /// Do not begin, commit or roll back transactions on it.
    ///
    /// **Thread:** the thread that runs the transaction's block.
    ///
    /// **Lifetime:** use the `Database` only until the transaction's block
    /// returns; never store it.
    ///
    /// - Warning: A programmer error when `transaction` came from a `MockDB`
    ///   (the code under test reached a real finder: mock the finder that
    ///   called the bridge), or when its block already returned (escaped
    ///   transaction). The message names this call site. In production it
    ///   stops the process; under a test runner (a test binary that links
    ///   `TransactionKitTesting`) it fails the running test and throws
    ///   ``/TransactionKit/DBMisuseError``, so that the finder stops there.
    /// - Parameters:
    ///   - transaction: A transaction handed out by an `SQLiteDB`.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Returns: GRDB's connection, inside the transaction.
    /// - Throws: ``/TransactionKit/DBMisuseError``, only under a test runner,
    ///   after recording a misuse as a test failure.
    public static func shimOnlyBridge(
        _ transaction: DBReadTransaction,
        file: StaticString = #fileID,
        line: UInt = #line
    ) throws(DBMisuseError) -> Database {
        let callSite = CallSite(file: file, line: line)
        let database = try transaction.connection(as: Database.self, bridge: "SQLiteDB.shimOnlyBridge", at: callSite)
        try checkBridgedTransactionCanRunSQL(transaction, database, for: "SQLiteDB.shimOnlyBridge", at: callSite)
        return database
    }

    /// The checks that only the storage can make, for transactions bridged
    /// from the application's own (`writeTransaction(bridging:)`,
    /// `readTransaction(bridging:)`): a read must still be open (GRDB does
    /// not report its end), and no statement may run from a finalization,
    /// which runs inside SQLite's commit hook.
    static func checkBridgedTransactionCanRunSQL(
        _ transaction: DBReadTransaction, _ database: Database, for use: String, at callSite: CallSite
    ) throws(DBMisuseError) {
        // SQLite's autocommit flag, read directly: GRDB's `isInsideTransaction`
        // must be asked on the connection's queue, and an escaped read may
        // come from anywhere.
        if transaction.kind == .read, let connection = database.sqliteConnection, sqlite3_get_autocommit(connection) != 0 {
            TransactionEngine<SQLiteBackend>.bridgedDidEnd(transaction)
            throw Misuse.escapedTransaction(
                kind: .read, openedAt: transaction.openedAt, outcome: "ended with the application's read",
                usedFor: use, at: callSite)
        }
        if SQLiteBridges.isFinalizing(database) {
            throw Misuse.report(
                "\(use) called from a finalization of a transaction bridged from the application's own write: "
                    + "it runs inside SQLite's commit hook, where no statement may run.",
                fix: "run the statement in the block that bridged the transaction, before the application's write "
                    + "returns; a finalization of a bridged transaction may register completions only.",
                at: callSite)
        }
    }
}
