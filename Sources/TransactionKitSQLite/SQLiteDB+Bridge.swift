import GRDB
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
    /// transaction `transaction` stands for. It is read-only when
    /// `transaction` is a read transaction, writable when it is a
    /// `DBWriteTransaction`. Do not begin, commit or roll back transactions
    /// on it.
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
        try transaction.connection(
            as: Database.self, bridge: "SQLiteDB.shimOnlyBridge", at: CallSite(file: file, line: line))
    }
}
