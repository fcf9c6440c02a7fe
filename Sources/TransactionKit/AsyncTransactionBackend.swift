/// A ``TransactionBackend`` that can keep a transaction open across
/// suspensions, so that ``TransactionEngine`` can run ``AsyncDB`` blocks on
/// it.
///
/// A separate protocol, rather than new requirements of
/// `TransactionBackend`, because not every backend can do it safely:
/// `SQLiteDB` cannot (see ``AsyncDB``), and does not conform.
package protocol AsyncTransactionBackend: TransactionBackend {
    /// Runs the async `body` inside one read transaction, passing the
    /// connection (or `nil`). Other transactions may run while `body` is
    /// suspended.
    func performAsyncRead<R: Sendable>(_ body: @Sendable (AnyObject?) async throws -> R) async throws -> R

    /// Runs the async `body` inside one write transaction: commits when it
    /// returns, rolls back and rethrows its error when it throws. Concurrent
    /// writes lose no update: either no other write begins until it ended,
    /// even while `body` is suspended (`MockDB`), or the storage isolates
    /// them and rolls back one that conflicts (`PostgresDB`). Waiting
    /// suspends, and never blocks a thread.
    func performAsyncWrite<R: Sendable>(_ body: @Sendable (AnyObject?) async throws -> R) async throws -> R
}
