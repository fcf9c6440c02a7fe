#if Postgres
import PostgresNIO
import TransactionKit

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension PostgresDB {
    /// Unwraps a transaction into its PostgreSQL connection, for the finder
    /// or Shortcut-Way wrapper that needs SQL.
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
    /// The only door from the abstract world into SQL: keep its calls in
    /// finders and wrappers, never in managers.
    ///
    /// **Transaction semantics:** the connection is inside the transaction
    /// `transaction` stands for, read-only or writable as it is. Do not run
    /// `BEGIN`, `COMMIT` or `ROLLBACK` on it. A failed statement aborts the
    /// whole transaction: rethrow its error; a block that catches it and
    /// returns fails anyway, with nothing committed.
    ///
    /// **Task and lifetime:** use the connection in the task that runs the
    /// block, until the block returns; never store it (the pool lends it to
    /// another transaction next).
    ///
    /// - Warning: A programmer error, naming this call site, when
    ///   `transaction` came from a `MockDB` (mock the finder that called the
    ///   bridge), when its block already returned, or when another task uses
    ///   it: it stops the process, or under a test runner fails the running
    ///   test and throws ``/TransactionKit/DBMisuseError``.
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
