#if Postgres
import PostgresNIO
import TransactionKit

extension PostgresDB {
    /// Unwraps a transaction into its PostgreSQL connection, for the one
    /// place where data-access code needs SQL: a finder or a Shortcut-Way
    /// wrapper.
    ///
    /// ```swift
    /// struct PostgresMessageFinder: AsyncMessageFinding {
    ///     func insert(_ draft: Draft, _ tx: DBWriteTransaction) async throws -> Message {
    ///         let connection = try PostgresDB.shimOnlyBridge(tx)
    ///         let rows = try await connection.query(
    ///             "INSERT INTO message (sender, body) VALUES (\(draft.sender), \(draft.body)) RETURNING id")
    ///         …
    ///     }
    /// }
    /// ```
    ///
    /// This is deliberately the only door from the abstract world into
    /// SQL: keep its calls in finders and wrappers, never in managers.
    ///
    /// **Transaction semantics:** the connection is inside the transaction
    /// `transaction` stands for: read-only for a `DBReadTransaction`,
    /// writable for a `DBWriteTransaction`. Do not run `BEGIN`, `COMMIT` or
    /// `ROLLBACK` on it. When a statement fails, PostgreSQL aborts the
    /// whole transaction: rethrow the error (the write then rolls back);
    /// a block that catches it and returns makes the write fail anyway,
    /// with nothing committed.
    ///
    /// **Task:** the task that runs the transaction's block.
    ///
    /// **Lifetime:** use the connection only until the block returns; never
    /// store it (the pool lends it to another transaction next).
    ///
    /// - Warning: A programmer error when `transaction` came from a `MockDB`
    ///   (the code under test reached a real finder: mock the finder that
    ///   called the bridge), when its block already returned (escaped
    ///   transaction), or when another task uses it. The message names this
    ///   call site. In production it stops the process; under a test runner
    ///   (a test binary that links `TransactionKitTesting`) it fails the
    ///   running test and throws ``/TransactionKit/DBMisuseError``.
    /// - Parameters:
    ///   - transaction: A transaction handed out by a `PostgresDB`.
    ///   - file: The call site's file, for misuse messages; leave the default.
    ///   - line: The call site's line, for misuse messages; leave the default.
    /// - Returns: The transaction's connection: postgres-nio's `query`, with
    ///   the database's logger by default, and its `PostgresConnection`.
    /// - Throws: ``/TransactionKit/DBMisuseError``, only under a test runner,
    ///   after recording a misuse as a test failure.
    public static func shimOnlyBridge(
        _ transaction: DBReadTransaction,
        file: StaticString = #fileID,
        line: UInt = #line
    ) throws(DBMisuseError) -> PostgresTransactionConnection {
        try transaction.connection(
            as: PostgresTransactionConnection.self, bridge: "PostgresDB.shimOnlyBridge",
            at: CallSite(file: file, line: line))
    }
}
#endif
