/// A backend that keeps a transaction open across suspensions, so that
/// ``TransactionEngine`` can run ``AsyncDB`` blocks on it.
///
/// Concurrent writes lose no update: either no other write begins until one
/// ended, even while its body is suspended, or the storage isolates them and
/// rolls back one that conflicts. Waiting suspends, and never blocks a
/// thread. `onCommit` has the meaning it has for ``SyncTransactionBackend``;
/// a backend whose writes run side by side calls it without ordering them.
package protocol AsyncTransactionBackend: TransactionBackend {
    /// Runs the async `body` inside one read transaction, passing its
    /// connection. Other transactions may run while `body` is suspended.
    func performAsyncRead<R: Sendable>(_ body: @Sendable (AnyObject?) async throws -> R) async throws -> R

    /// Runs the async `body` inside one write transaction: commits when it
    /// returns, rolls back and rethrows its error when it throws.
    func performAsyncWrite<R: Sendable>(
        _ body: @Sendable (AnyObject?) async throws -> R,
        onCommit: @Sendable (DBChanges) -> Void
    ) async throws -> R
}
