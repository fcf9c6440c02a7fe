/// What every storage engine gives ``TransactionEngine``, whether its
/// transactions run synchronous blocks (``SyncTransactionBackend``), async
/// blocks (``AsyncTransactionBackend``), or both: the mapping of its own
/// errors to ``DBError``.
///
/// Backends know nothing of the transaction lifecycle, hooks, observers or
/// misuse checks: the engine owns them, so that every backend behaves the
/// same. A backend runs the engine's body inside one transaction of its
/// storage, hands it the connection a bridge unwraps (`nil` when it has
/// none), and reports a successful commit through the `onCommit` callback of
/// a write.
package protocol TransactionBackend: Sendable {
    /// Turns an error raised by the backend itself (opening, beginning,
    /// committing) into a ``DBError``.
    func storageError(from error: any Error, during operation: DBError.Operation) -> any Error

    /// Given an error thrown by the user's block, returns the error `read` or
    /// `write` rethrows: a ``DBError`` for storage faults, the error itself
    /// otherwise.
    func blockError(from error: any Error, during operation: DBError.Operation) -> any Error
}

/// A backend whose transactions run synchronous blocks: the storage of a
/// ``DB``.
///
/// A write's `onCommit` runs once, after the storage committed and before
/// the next write of this backend can commit (so that observers hear about
/// commits in commit order), with the changes the storage itself detected
/// (empty when it detects none). It never runs for a rollback or a failed
/// commit.
package protocol SyncTransactionBackend: TransactionBackend {
    /// Runs `body` inside one read transaction, passing its connection.
    func performRead<R>(_ body: (AnyObject?) throws -> R) throws -> R

    /// Runs `body` inside one write transaction: commits when it returns,
    /// rolls back and rethrows its error when it throws.
    func performWrite<R>(_ body: (AnyObject?) throws -> R, onCommit: (DBChanges) -> Void) throws -> R

    /// Runs `body` inside one read transaction without blocking the caller.
    func performRead<R: Sendable>(_ body: @Sendable (AnyObject?) throws -> R) async throws -> R

    /// Runs `body` inside one write transaction without blocking the caller.
    func performWrite<R: Sendable>(
        _ body: @Sendable (AnyObject?) throws -> R,
        onCommit: @Sendable (DBChanges) -> Void
    ) async throws -> R
}
